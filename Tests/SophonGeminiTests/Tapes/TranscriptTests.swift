import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// The transcript seam (docs/tapes.md): served tool results go through the one injected
/// transcript; a recording writes each outcome, a replay answers from it without running.
@Suite struct TranscriptTests {
    static let calls = [
        FunctionCall(id: "1", name: "add", args: .object([JSONMember("a", .integer(1))])),
        FunctionCall(id: "2", name: "crash", args: nil),
    ]
    static let outcomes: [GeminiToolOutcome] = [.result(.integer(3)), .error("boom")]

    @Test func aRecordedCallIsAnsweredFromTheTapeWithoutRunning() async throws {
        let url = try TapeTestSupport.tapeURL()
        let recorder = try GeminiTapeRecorder(
            wrapping: ScriptedTransport([]), tapeURL: url, baseURL: nil)
        let live: any GeminiTranscript = recorder
        #expect(live.runsLive && live.recordedFunctions(orLast: true) == nil)
        for (call, outcome) in zip(Self.calls, Self.outcomes) {
            #expect(await live.serve(call, server: "p") { outcome } == outcome)
        }
        #expect(
            try TapeTestSupport.lines(url).dropFirst() == [
                #"{"tool":{"name":"add","args":{"a":1},"server":"p","result":3}}"#,
                #"{"tool":{"name":"crash","args":{},"server":"p","error":"boom"}}"#,
            ])

        let replay: any GeminiTranscript = GeminiTapeReplayer(tape: try GeminiTape(contentsOf: url))
        #expect(!replay.runsLive)
        for (call, outcome) in zip(Self.calls, Self.outcomes) {
            let answered = await replay.serve(call, server: "p") {
                Issue.record("a replay ran \(call.name)")
                return .error("ran")
            }
            #expect(answered == outcome)
        }
        let missing = await replay.serve(Self.calls[0], server: "p") { .error("ran") }
        #expect(
            missing
                == .unrecorded(
                    response: .object([
                        JSONMember("error", .string("the tape has no recorded call of 'add' here"))
                    ]),
                    missing: true))
    }
}
