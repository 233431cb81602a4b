import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// PRODUCT §6: a part kind the client does not know is kept whole in the history and
/// reported, never dropped, whether the reply was streamed (`stream on`, the default) or not.
@Suite(.childSlots) struct StreamedUnknownPartTests {
    @Test func aStreamedChatKeepsAnUnknownPartWholeAndNotesIt() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "parts": [{"text": "hi there"}, {"futurePart": {"x": 1}, "thoughtSignature": "c2ln"}]}"#,
            #"{"kind": "generate", "text": "again"}"#,
        ])
        let outcome = try await shell.run(["-c", "chat a", "-c", "chat b"])
        #expect(outcome.stdout == "hi there\nagain\n")
        #expect(outcome.stderr == "note: the reply has a 'futurePart' part, kept in the history as sent\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(
            requests.map(\.path)
                == Array(
                    repeating: "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse", count: 2))
        #expect(
            requests[1].body["contents"]
                == (try JSONValue(
                    parsing: #"""
                        [{"role": "user", "parts": [{"text": "a"}]},
                         {"role": "model", "parts": [{"text": "hi there"},
                                                     {"thoughtSignature": "c2ln", "futurePart": {"x": 1}}]},
                         {"role": "user", "parts": [{"text": "b"}]}]
                        """#)))
    }

    /// The answer is empty (printed as it streamed: nothing), not an `emptyResponse` error.
    @Test func aStreamedReplyOfOnlyAnUnknownPartIsAnEmptyAnswerNotAnError() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "parts": [{"futurePart": {"x": 1}}]}"#,
            #"{"kind": "generate", "parts": [{"futurePart": {"x": 1}}]}"#,
        ])
        let streamed = try await shell.run(["-c", "ask a"])
        let whole = try await shell.run(["-c", "set stream off", "-c", "ask a"])
        #expect(streamed.stdout == "")
        #expect(streamed.stderr == "note: the reply has a 'futurePart' part, kept in the history as sent\n")
        #expect(streamed.status == 0)
        #expect(whole.stdout == "\n")
        #expect(whole.stderr == streamed.stderr)
        #expect(whole.status == 0)
    }
}
