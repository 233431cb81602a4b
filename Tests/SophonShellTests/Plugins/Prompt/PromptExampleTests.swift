import Foundation
import SophonTestSupport
import Testing

/// examples/prompt.sophon asks with examples/triage.prompt and checks the answers with
/// `expect`; its tape replays it offline, as a script and under `sophon test` (PRODUCT §12:
/// `.sophon` tests can call `prompt`; docs/prompts.md).
@Suite(.childSlots) struct PromptExampleTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    @Test func thePromptExampleReplaysFromItsTape() async throws {
        let shell = try await GeminiShell(key: nil)
        let outcome = try await shell.run([
            "--replay", Self.examples.appendingPathComponent("prompt.tape").path,
            Self.examples.appendingPathComponent("prompt.sophon").path,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("3 passed, 0 failed\n"))
    }

    @Test func aSophonTestCallsPromptAndExpectsOnItsAnswer() async throws {
        let shell = try await GeminiShell(key: nil)
        let outcome = try await shell.run([
            "--replay", Self.examples.appendingPathComponent("prompt.tape").path, "test",
            Self.examples.appendingPathComponent("prompt.sophon").path,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("PASS "))
        #expect(outcome.stdout.hasSuffix("\ncost: $0.0000585\n1 passed, 0 failed\n"))
    }

    @Test func theTicketsRunThroughThePromptFileFromTheSameTape() async throws {
        let shell = try await GeminiShell(key: nil)
        let outcome = try await shell.run([
            "--replay", Self.examples.appendingPathComponent("prompt.tape").path, "run",
            Self.examples.appendingPathComponent("tickets.jsonl").path, "-o", "triaged.jsonl", "--prompt",
            Self.examples.appendingPathComponent("triage.prompt").path,
        ])
        #expect(
            outcome.stderr
                == "run: 2/2 done, 0 failed, 0 reused (same request); cost $0.0000585; wrote triaged.jsonl\n")
        #expect(outcome.status == 0)
        let usage = #""usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}"#
        let billing =
            #"{"category":"billing","urgency":4,"summary":"Charged twice for the annual plan; wants one refund."}"#
        let bug =
            #"{"category":"bug","urgency":4,"summary":"App crashes opening albums that contain videos."}"#
        #expect(
            shell.read("triaged.jsonl")
                == #"{"key":"t1","ok":true,"result":\#(billing),"model":"gemini-3.8-flash",\#(usage)}"# + "\n"
                + #"{"key":"t2","ok":true,"result":\#(bug),"model":"gemini-3.8-flash",\#(usage)}"# + "\n")
    }
}
