import Foundation
import SophonCore
import SophonGemini
import Synchronization
import Testing

/// One shape per idea for Batch mode and files (docs/library.md): a request struct, a default
/// model, waiting for a job through the one poller, text answers as `String`, file states as
/// an enum and files without force-unwraps.
@Suite struct BatchShapesTests {
    static func operation(_ state: String, answers: String = "") -> String {
        let output =
            answers.isEmpty ? "" : #", "output": {"inlinedResponses": {"inlinedResponses": [\#(answers)]}}"#
        return
            #"{"name": "batches/b1", "metadata": {"displayName": "nightly", "model": "models/gemini-3.1-flash-lite", "state": "\#(state)"\#(output)}}"#
    }

    static func item(_ key: String, _ text: String) -> String {
        #"{"metadata": {"key": "\#(key)"}, "response": {"candidates": [{"content": {"role": "model", "parts": [{"text": \#(JSONValue.string(text).compactText)}]}, "finishReason": "STOP"}]}}"#
    }

    @Test func aBatchOfRequestStructsUsesTheSelectedModel() async throws {
        let (client, transport) = cannedClient([(status: 200, body: Self.operation("BATCH_STATE_PENDING"))])
        let batch = try await client.createBatch(
            displayName: "nightly",
            requests: [
                GeminiBatchRequest(key: "a", prompt: "Say a."),
                GeminiBatchRequest(key: "b", prompt: "Say b.", systemInstruction: "Be brief."),
            ])
        #expect(batch.state == .pending)
        #expect(
            transport.requests.map(\.url.path) == [
                "/v1beta/models/gemini-3.1-flash-lite:batchGenerateContent"
            ])
        #expect(
            String(decoding: transport.requests[0].body ?? Data(), as: UTF8.self)
                == #"{"batch":{"displayName":"nightly","inputConfig":{"requests":{"requests":["#
                + #"{"request":{"contents":[{"role":"user","parts":[{"text":"Say a."}]}]},"metadata":{"key":"a"}},"#
                + #"{"request":{"contents":[{"role":"user","parts":[{"text":"Say b."}]}],"#
                + #""systemInstruction":{"parts":[{"text":"Be brief."}]}},"metadata":{"key":"b"}}]}}}}"#)
    }

    @Test func waitUntilDonePollsThroughTheOnePollerAndAnswersAreText() async throws {
        let waits = Mutex<[Duration]>([])
        let (client, transport) = cannedClient(
            [
                (status: 200, body: Self.operation("BATCH_STATE_PENDING")),
                (status: 200, body: Self.operation("BATCH_STATE_RUNNING")),
                (
                    status: 200,
                    body: Self.operation(
                        "BATCH_STATE_SUCCEEDED",
                        answers: Self.item("a", "A.") + ","
                            + #"{"metadata": {"key": "b"}, "error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}}"#
                    )
                ),
            ], sleep: { wait in waits.withLock { $0.append(wait) } })
        let done = try await client.waitUntilDone("batches/b1")
        #expect(done.state == .succeeded)
        #expect(waits.withLock { $0 } == [.seconds(1), .seconds(2)])
        #expect(transport.requests.map(\.url.path) == Array(repeating: "/v1beta/batches/b1", count: 3))
        #expect(try done.textAnswers["a"]?.get() == "A.")
        #expect(done.textAnswers["b"].map { (try? $0.get()) == nil } == true)
        #expect(done.inlinedResponses?.first?.text == .success("A."))
    }

    @Test func waitUntilDoneGivesUpAtItsTimeoutWithTheLastState() async throws {
        let (client, _) = cannedClient(
            Array(repeating: (status: 200, body: Self.operation("BATCH_STATE_RUNNING")), count: 4))
        await #expect(
            throws: GeminiBatchWaitError.timedOut(name: "batches/b1", waited: .seconds(3), state: .running)
        ) {
            try await client.waitUntilDone("batches/b1", timeout: .seconds(3))
        }
        #expect(
            GeminiBatchWaitError.timedOut(name: "batches/b1", waited: .seconds(3), state: .running)
                .description
                == "batch batches/b1 still RUNNING after 3 s")
    }

    static let file =
        #"{"name": "files/f1", "mimeType": "video/mp4", "uri": "https://example.com/files/f1", "state": "PROCESSING"}"#

    @Test func filesHaveAStateEnumAndNeedNoForceUnwraps() async throws {
        let waits = Mutex<[Duration]>([])
        let (client, transport) = cannedClient(
            [
                (status: 200, body: Self.file),
                (status: 200, body: Self.file.replacingOccurrences(of: "PROCESSING", with: "ACTIVE")),
                (status: 200, body: answer("A cat jumps.")),
            ], sleep: { wait in waits.withLock { $0.append(wait) } })
        let uploaded = try JSONDecoder().decode(GeminiFile.self, from: Data(Self.file.utf8))
        #expect(uploaded.processingState == .processing)
        let ready = try await client.waitUntilActive(uploaded)
        #expect(ready.processingState == .active)
        #expect(waits.withLock { $0 } == [.seconds(1)])
        let reply = try await client.generateText(
            label: "video", prompt: [.file(ready), .text("What happens?")])
        #expect(reply.value == "A cat jumps.")
        #expect(
            String(decoding: transport.requests[2].body ?? Data(), as: UTF8.self)
                == #"{"contents":[{"role":"user","parts":[{"fileData":{"mimeType":"video/mp4","fileUri":"https://example.com/files/f1"}},{"text":"What happens?"}]}]}"#
        )
        // Already active: no request.
        _ = try await client.waitUntilActive(ready)
        #expect(transport.requests.count == 3)
        #expect(GeminiFile(name: "files/x").processingState == .unspecified)
    }
}
