import Foundation
import SophonTestSupport
import Testing

/// `set dry-run on` sends nothing at all (docs/commands.md, "ask"): a command without a dry run
/// of its own is refused before sending, and a dry run leaves the session as it was.
@Suite(.childSlots) struct DryRunSafetyTests {
    @Test func aCommandWithoutADryRunIsRefusedAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "hi"}"# + "\n")
        let outcome = try await shell.run([
            "-c", "set dry-run on", "-c", "run in.jsonl -o out.jsonl", "-c", "batch submit in.jsonl",
            "-c", "files delete --all", "-c", "expect a judge \"polite\"",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                -c:2:1: error: run: nothing sent: dry-run is on, and run has no dry run (set dry-run off to send)
                -c:3:1: error: batch submit: nothing sent: dry-run is on, and batch has no dry run (set dry-run off to send)
                -c:4:1: error: files delete: nothing sent: dry-run is on, and files has no dry run (set dry-run off to send)
                -c:5:1: error: expect: judge: nothing sent: dry-run is on (set dry-run off to send)

                """)
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("out.jsonl") == nil)
    }

    @Test func aDryRunKeepsTheAttachmentsForTheNextTurnSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("note.txt", "hello\n")
        let outcome = try await shell.run([
            "-c", "attach note.txt", "-c", "ask --dry-run dry one", "-c", "attach", "-c", "ask real two",
            "-c", "attach",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("}\nnote.txt\n"))
        #expect(outcome.stdout.hasSuffix("(nothing attached)\n"))
        let sent = try await shell.server.requests()
        #expect(sent.count == 1)
        // The attachment went with the turn that was sent, before its prompt.
        #expect(sent.first?.body["contents"]?[0]?["parts"]?[0]?["inlineData"] != nil)
        #expect(sent.first?.body["contents"]?[0]?["parts"]?[1]?["text"] == .string("real two"))
    }
}
