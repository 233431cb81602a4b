import Foundation
import SophonTestSupport
import Testing

/// `@FILE` naming a FIFO is read once, as named (docs/files.md, "Files the shell reads"): the
/// fast paths for regular files no longer open it first, which took what the writer sent and
/// left the read that followed waiting for a writer that never came (`extract @FIFO` hung).
@Suite(.childSlots) struct NamedFIFOInputTests {
    @Test(arguments: [
        ("extract @PATH", "{\n  \"b\": 2\n}\n"),
        ("schema { b: integer }\nvalidate @PATH", "valid\n"),
    ])
    func anAtFileThatIsAFIFOIsReadOnce(command: String, stdout: String) async throws {
        let shell = try await GeminiShell()
        let path = try ImplicitFileTests.fifo(shell, "input.json")
        let writer = ImplicitFileTests.FIFOWriter(path: path, text: #"{"b": 2}"#)
        let outcome = try await shell.run(
            ["--no-rc"], stdin: command.replacingOccurrences(of: "PATH", with: path) + "\n",
            timeout: ImplicitFileTests.timeout)
        #expect(await writer.finish())
        #expect(outcome == .init(stdout: stdout, stderr: "", status: 0))
    }
}
