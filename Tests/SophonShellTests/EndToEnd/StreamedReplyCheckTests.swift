import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// A reply with no answer text fails the same way streamed (`set stream on`, the default) and
/// unstreamed: the one check of a complete reply (PRODUCT §3, `GeminiError`; §5, finish
/// reasons), end to end against scripts/fake_gemini.py.
@Suite(.childSlots) struct StreamedReplyCheckTests {
    /// A stop at the output token limit before any answer text is `truncated`, not an empty
    /// answer (a thinking model that spent the whole budget thinking).
    @Test(arguments: ["on", "off"])
    func aStopAtTheTokenLimitWithoutTextIsTruncated(stream: String) async throws {
        let shell = try await GeminiShell()
        let reply = #"{"kind": "generate", "emptyContent": true, "finishReason": "MAX_TOKENS"}"#
        try await shell.server.script([reply])
        let outcome = try await shell.run(["-c", "set stream \(stream)", "-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "-c:2:1: error: The answer was cut off at the output token limit.\n",
                    status: 1))

        try await shell.server.script([reply])
        let json = try await shell.run(["--json", "-c", "set stream \(stream)", "-c", "ask hi"])
        let line = try JSONValue(parsing: String(json.stdout.split(separator: "\n").last ?? ""))
        #expect(line["error"]?["kind"] == .string("truncated"))
        // Never retried: the same prompt stops at the same limit.
        #expect(try await shell.server.requests().count == 1)
    }

    /// A malformed function call is the model's failed function call, with its finish message.
    @Test(arguments: ["on", "off"])
    func aMalformedFunctionCallIsAFailedToolCall(stream: String) async throws {
        let shell = try await GeminiShell()
        let reply =
            #"{"kind": "generate", "emptyContent": true, "finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: f(x=)"}"#
        try await shell.server.script([reply])
        let outcome = try await shell.run(["--json", "-c", "set stream \(stream)", "-c", "ask hi"])
        let line = try JSONValue(parsing: String(outcome.stdout.split(separator: "\n").last ?? ""))
        #expect(line["error"]?["kind"] == .string("toolCallFailed"))
        #expect(
            line["error"]?["message"]
                == .string(
                    "The model's function call failed (MALFORMED_FUNCTION_CALL). Malformed function call: f(x=)"
                ))
        #expect(outcome.status == 1)
    }
}
