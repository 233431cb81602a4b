import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Every sender waits after a 429 by ``RetryDecision`` on the client's injected clock: a
/// Batch create, a bulk run's keys, an upload's chunks. Nothing here really sleeps.
@Suite struct OneWaitPathTests {
    static func rateLimited(_ delay: String?) -> ScriptedTransport.Reply {
        let retryInfo =
            delay.map {
                #", "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "\#($0)"}]"#
            } ?? ""
        return .json(
            429,
            #"{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "slow down"\#(retryInfo)}}"#)
    }

    static let created =
        #"{"name": "batches/b1", "metadata": {"displayName": "t", "state": "BATCH_STATE_PENDING"}}"#

    static let answer = """
        {"candidates": [{"content": {"parts": [{"text": "ok"}], "role": "model"}, "finishReason": "STOP"}],
         "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}
        """

    func client(_ replies: [ScriptedTransport.Reply]) -> (GeminiAPIClient, ScriptedTransport, SleepRecorder) {
        let transport = ScriptedTransport(replies)
        let recorder = SleepRecorder()
        return (
            GeminiAPIClient(configuration: .testing(recorder: recorder), transport: transport), transport,
            recorder
        )
    }

    @Test func batchCreateWaitsTheServersThirtySecondsThenSucceeds() async throws {
        let (client, transport, recorder) = client([Self.rateLimited("30s"), .json(200, Self.created)])
        let batch = try await client.createBatch(
            displayName: "t", model: GeminiModel(id: "gemini-3.8-flash"),
            requests: [("x", GenerateContentRequest(contents: [.user("hi")]))])
        #expect(batch.name == "batches/b1")
        #expect(recorder.recorded == [.seconds(30)])
        #expect(transport.requests.count == 2)
    }

    @Test func batchCreateFailsAtOnceWhenTheServerWaitIsPastThePolicysLimit() async throws {
        let (client, transport, recorder) = client([Self.rateLimited("90s"), .json(200, Self.created)])
        await #expect(throws: GeminiError.self) {
            _ = try await client.createBatch(displayName: "t", model: nil, fileName: "files/f")
        }
        #expect(recorder.recorded == [])
        #expect(transport.requests.count == 1)
    }

    @Test func batchCreateNeverRetriesALostAnswer() async throws {
        let (client, transport, recorder) = client([
            .failure(.transport(.connectionLost, detail: "reset")), .json(200, Self.created),
        ])
        await #expect(throws: GeminiError.self) {
            _ = try await client.createBatch(displayName: "t", model: nil, fileName: "files/f")
        }
        #expect(recorder.recorded == [])
        #expect(transport.requests.count == 1)
    }

    static func one() -> AsyncStream<BulkRequest> {
        AsyncStream { continuation in
            continuation.yield(
                BulkRequest(key: "k", request: GenerateContentRequest(contents: [.user("hi")])))
            continuation.finish()
        }
    }

    @Test func bulkRunPausesForTheServersWaitOnTheInjectedClock() async throws {
        let (client, transport, recorder) = client([Self.rateLimited("30s"), .json(200, Self.answer)])
        var results: [BulkResult] = []
        for try await result in client.bulkRun(Self.one(), options: BulkRunOptions(jobs: 1)) {
            results.append(result)
        }
        #expect(results.map(\.rateLimitedCount) == [1])
        guard case .success(let value, _, _)? = results.first?.outcome else {
            Issue.record("expected an answer, got \(String(describing: results.first?.outcome))")
            return
        }
        #expect(value == .string("ok"))
        #expect(recorder.recorded == [.seconds(30)])
        #expect(transport.requests.count == 2)
    }

    @Test func bulkRunWaitsTheDefaultAndGivesUpAfterItsRateLimitRetries() async throws {
        let (client, transport, recorder) = client([
            Self.rateLimited(nil), Self.rateLimited(nil), Self.rateLimited(nil),
        ])
        let options = BulkRunOptions(jobs: 1, maxRateLimitRetries: 2, defaultRateLimitWait: .seconds(2))
        var results: [BulkResult] = []
        for try await result in client.bulkRun(Self.one(), options: options) { results.append(result) }
        #expect(results.map(\.rateLimitedCount) == [3])
        guard case .failure(.rateLimited(let wait, _))? = results.first?.outcome else {
            Issue.record("expected rateLimited, got \(String(describing: results.first?.outcome))")
            return
        }
        #expect(wait == nil)
        #expect(recorder.recorded == [.seconds(2), .seconds(2)])
        #expect(transport.requests.count == 3)
    }
}
