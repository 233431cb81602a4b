import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Retired models, rate limits and bad keys, end to end: the real binary against
/// scripts/fake_gemini.py over HTTP.
@Suite(.childSlots) struct GeminiShellFailureTests {
    static let notFound = #"{"fault": "not_found"}"#
    static let fallbackAnswer = #"{"kind": "generate", "text": "answered by the fallback"}"#

    /// The model saved in `settings.json`, `nil` when there is none.
    static func savedModel(_ shell: GeminiShell) throws -> String? {
        guard let text = shell.read("settings.json") else { return nil }
        return try JSONValue(parsing: text)["model"]?.stringValue
    }

    @Test(arguments: ["on", "off"])
    func aRetiredPresetSavedAsTheDefaultFallsBackAndTheSavedDefaultFollows(stream: String) async throws {
        let shell = try await GeminiShell()
        let saved = try await shell.run(["-c", "set model gemini-2.5-flash --save"])
        #expect(saved.status == 0)
        #expect(try Self.savedModel(shell) == "gemini-2.5-flash")

        try await shell.server.script([Self.notFound, Self.fallbackAnswer])
        let outcome = try await shell.run(["-c", "set stream \(stream)", "-c", "ask hi", "-c", "show model"])
        #expect(outcome.stdout == "answered by the fallback\ngemini-3.5-flash-lite\n")
        #expect(
            outcome.stderr
                == "note: gemini-2.5-flash is not available (404); answered by the fallback gemini-3.5-flash-lite\n"
        )
        #expect(outcome.status == 0)
        #expect(try Self.savedModel(shell) == "gemini-3.5-flash-lite")
        let method = stream == "on" ? "streamGenerateContent?alt=sse" : "generateContent"
        #expect(
            try await shell.server.requests().map(\.path) == [
                "/v1beta/models/gemini-2.5-flash:\(method)", "/v1beta/models/gemini-3.5-flash-lite:\(method)",
            ])
    }

    @Test func aSessionOnlyModelThat404sLeavesSettingsJSONAlone() async throws {
        let shell = try await GeminiShell()
        #expect(try await shell.run(["-c", "set model gemini-3.6-flash --save"]).status == 0)
        let before = shell.read("settings.json")
        try await shell.server.script([Self.notFound, Self.fallbackAnswer])
        let outcome = try await shell.run([
            "-c", "set model gemini-2.5-pro", "-c", "ask hi", "-c", "show model",
        ])
        #expect(outcome.stdout == "answered by the fallback\ngemini-3.5-flash-lite\n")
        #expect(
            outcome.stderr
                == "note: gemini-2.5-pro is not available (404); answered by the fallback gemini-3.5-flash-lite\n"
        )
        #expect(outcome.status == 0)
        #expect(shell.read("settings.json") == before)
        #expect(try Self.savedModel(shell) == "gemini-3.6-flash")
    }

    @Test func a429WithAShortRetryInfoIsRetriedOnceAndVerboseSaysSo() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"fault": "rate_limit", "retryDelay": "0.3s"}"#, #"{"kind": "generate", "text": "made it"}"#,
        ])
        let outcome = try await shell.run(["--verbose", "-c", "set stream off", "-c", "ask hi"])
        #expect(outcome.stdout == "made it\n")
        #expect(outcome.status == 0)
        let lines = outcome.stderr.split(separator: "\n").map {
            $0.replacingOccurrences(of: #" in [0-9]+ ms$"#, with: " in N ms", options: .regularExpression)
        }
        #expect(
            lines == [
                "-> POST /v1beta/models/gemini-3.8-flash:generateContent (attempt 1)",
                "<- 429 RESOURCE_EXHAUSTED in N ms",
                "retry 1/2 in 0.3s after 429 RESOURCE_EXHAUSTED",
                "-> POST /v1beta/models/gemini-3.8-flash:generateContent (attempt 2)",
                "<- 200 OK in N ms",
            ])
        #expect(try await shell.server.requests().count == 2)
    }

    /// A key the model echoes in a streamed answer (split across chunks) is masked on stdout,
    /// in `history` and in the log, as in a whole answer.
    @Test func aKeyEchoedInAStreamedAnswerIsMaskedEverywhere() async throws {
        let key = "AIzaSyDUMMYKEYzz9876"
        let shell = try await GeminiShell(serverKey: key, key: key)
        try await shell.server.script([#"{"kind": "generate", "text": "key \#(key) end"}"#])
        let outcome = try await shell.run(["-c", "chat hi", "-c", "history"])
        #expect(outcome.stdout == "key ••••9876 end\nuser: hi\nmodel: key ••••9876 end\n")
        #expect(outcome.status == 0)
        let logged = try await shell.run(["--json", "logs", "-n", "1"])
        #expect(!logged.stdout.contains("zz9876") && logged.stdout.contains("••••9876"))
        let resumed = try await shell.run(["--continue", "-c", "history"])
        #expect(resumed.stdout == "user: hi\nmodel: key ••••9876 end\n")
    }

    @Test func anInvalidKeyIsAClearErrorThatFailsTheScriptWithTheEchoedKeyMasked() async throws {
        let wrongKey = "AIzaSyWRONG-wrong-wrong-wrong-0000k3Y9"
        let shell = try await GeminiShell(serverKey: "test-key", key: wrongKey)
        let script = try shell.write("bad-key.sophon", "ask hi\necho still running\n")
        let outcome = try await shell.run([script])
        #expect(outcome.stdout == "still running\n")
        #expect(
            outcome.stderr
                == "\(script):1: error: The Gemini API rejected the API key: HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key. (Invalid API key: ••••k3Y9)\n"
        )
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().first?.headers["x-goog-api-key"] == wrongKey)
    }
}
