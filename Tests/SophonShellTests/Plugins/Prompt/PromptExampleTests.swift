import Foundation
import Testing

/// examples/prompt.sophon asks with examples/triage.prompt and checks the answers with
/// `expect`; its tape replays it offline, as a script and under `sophon test` (PRODUCT §12:
/// `.sophon` tests can call `prompt`; docs/prompts.md).
@Suite struct PromptExampleTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("examples")

    @Test func thePromptExampleReplaysFromItsTape() throws {
        let shell = try GeminiShell(key: nil)
        let outcome = try shell.run([
            "--replay", Self.examples.appendingPathComponent("prompt.tape").path,
            Self.examples.appendingPathComponent("prompt.sophon").path,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("3 passed, 0 failed\n"))
    }

    @Test func aSophonTestCallsPromptAndExpectsOnItsAnswer() throws {
        let shell = try GeminiShell(key: nil)
        let outcome = try shell.run([
            "--replay", Self.examples.appendingPathComponent("prompt.tape").path, "test",
            Self.examples.appendingPathComponent("prompt.sophon").path,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("PASS "))
        #expect(outcome.stdout.hasSuffix("1 passed, 0 failed\n"))
    }
}
