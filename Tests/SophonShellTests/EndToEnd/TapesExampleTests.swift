import Foundation
import SophonTestSupport
import Testing

/// docs/tapes.md's example, as written: its script and hand-written tape, replayed with the
/// command line it shows, print what its console block shows (the `->`/`<-` lines on stderr,
/// the rest on stdout; the milliseconds of a `<-` line are not compared).
@Suite(.childSlots) struct TapesExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced blocks of docs/tapes.md's "An example" section, in order.
    static func exampleBlocks() throws -> [String] {
        let page = try String(
            contentsOf: repository.appendingPathComponent("docs/tapes.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## An example\n").last)
        return section.components(separatedBy: "```").enumerated()
            .filter { $0.offset % 2 == 1 }
            .map { block in
                // Drop the info string (`console`) and the newline that ends the fence's line.
                String(block.element.drop { $0 != "\n" }.dropFirst())
            }
    }

    @Test func theExampleReplaysAsShown() async throws {
        let blocks = try Self.exampleBlocks()
        try #require(blocks.count == 3)
        let (script, tape, console) = (blocks[0], blocks[1], blocks[2])
        #expect(script == "tokens hello\nexpect $last == 2\nask Say hi\nexpect $last contains there\n")
        #expect(tape.hasPrefix("{\"sophonTape\": 1}\n"))
        var lines = console.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.removeFirst() == "$ sophon -X --verbose --replay hello.tape hello.sophon")
        #expect(lines.removeLast() == "")

        let manager = FileManager.default
        let stage = manager.temporaryDirectory.appendingPathComponent("sophon-tapes-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: stage) }
        try manager.createDirectory(at: stage, withIntermediateDirectories: true)
        try script.write(to: stage.appendingPathComponent("hello.sophon"), atomically: true, encoding: .utf8)
        try tape.write(to: stage.appendingPathComponent("hello.tape"), atomically: true, encoding: .utf8)
        let outcome = try await SophonProcess.run(
            ["-X", "--verbose", "--replay", "hello.tape", "hello.sophon"], files: stage)

        // The time a replayed response took is the machine's; it is not compared.
        func untimed(_ text: String) -> String {
            text.replacingOccurrences(of: #" in [0-9]+ ms"#, with: " in N ms", options: .regularExpression)
        }
        let verbose = lines.filter { $0.hasPrefix("-> ") || $0.hasPrefix("<- ") }.map(untimed)
        let printed = lines.filter { !($0.hasPrefix("-> ") || $0.hasPrefix("<- ")) }
        #expect(
            verbose == [
                "-> POST /v1beta/models/gemini-3.8-flash:countTokens (attempt 1)",
                "<- 200 OK in N ms",
                "-> POST /v1beta/models/gemini-3.8-flash:streamGenerateContent (attempt 1)",
                "<- 200 OK in N ms",
            ])
        #expect(printed == ["2", "Hi there.", "2 passed, 0 failed"])
        #expect(untimed(outcome.stderr) == verbose.map { $0 + "\n" }.joined())
        #expect(outcome.stdout == printed.map { $0 + "\n" }.joined())
        #expect(outcome.status == 0)
    }
}
