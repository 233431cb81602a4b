import Foundation
import SophonTestSupport
import Testing

/// Golden transcripts of `sophon extract` in one-command mode (the real binary).
@Suite(.childSlots) struct ExtractCommandTests {
    @Test func truncatedFencedReplyFromStdin() async throws {
        let outcome = try await SophonProcess.run(["extract"], stdin: "Sure!\n```json\n{\"a\": [1, 2,")
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n")
        #expect(outcome.stderr.contains("repair: "))
    }

    @Test func noJSONExitsOneWithNothingOnStdout() async throws {
        let outcome = try await SophonProcess.run(["extract"], stdin: "no json here\n")
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "error: extract: no JSON value found in the text\n")
    }

    @Test func twoFencedBlocksPrintAsOneArray() async throws {
        let reply = "First:\n```json\n{\"a\": 1}\n```\nThen:\n```\n[2, 3]\n```\n"
        let outcome = try await SophonProcess.run(["--json", "extract"], stdin: reply)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == #"{"command":"extract","ok":true,"result":[{"a":1},[2,3]]}"# + "\n")
        #expect(outcome.stderr == "note: found 2 JSON values; printing them as one array\n")
    }

    @Test func textArgumentIsTheInput() async throws {
        let outcome = try await SophonProcess.run(["extract", "The answer: [1, 2, 3] as asked."])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "[\n  1,\n  2,\n  3\n]\n")
        #expect(outcome.stderr == "")
    }

    @Test func fileArgument() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reply-\(UUID()).txt")
        try Data("```json\n{\"ok\": true}\n```".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try await SophonProcess.run(["extract", "@" + file.path])
        #expect(outcome == .init(stdout: "{\n  \"ok\": true\n}\n", stderr: "", status: 0))
    }

    @Test func missingFileFails() async throws {
        let outcome = try await SophonProcess.run(["extract", "@/nonexistent/reply.txt"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "error: extract: cannot read '/nonexistent/reply.txt': no such file\n")
    }
}
