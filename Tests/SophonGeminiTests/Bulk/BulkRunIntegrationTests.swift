import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonGemini

/// ``GeminiAPIClient/bulkRun(_:options:label:)`` and the Batch calls over real HTTP against
/// scripts/fake_gemini.py.
@Suite(.childSlots) struct BulkRunIntegrationTests {
    static func requests(_ count: Int) -> AsyncStream<BulkRequest> {
        AsyncStream { continuation in
            for number in 0..<count {
                continuation.yield(
                    BulkRequest(
                        key: "k\(number)",
                        request: GenerateContentRequest(contents: [.user("prompt number \(number)")])))
            }
            continuation.finish()
        }
    }

    @Test func everyKeyComesBackOnceAndA429PausesTheRunOnly() async throws {
        let server = try await FakeGeminiServer()
        defer { server.stop() }
        _ = try await server.control(
            "POST", "/_sophon/rules",
            body:
                #"{"rules": [{"match": "prompt number 3\"", "reply": {"fault": "rate_limit", "retryDelay": "0.1s"}, "times": 2},"#
                + #"{"match": "prompt number 5\"", "reply": {"fault": "bad_request"}}]}"#)
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        var outcomes: [String: String] = [:]
        var limited: [String: Int] = [:]
        for try await result in client.bulkRun(Self.requests(10), options: BulkRunOptions(jobs: 4)) {
            #expect(outcomes[result.key] == nil)
            switch result.outcome {
            case .success(let value, _, let usage):
                outcomes[result.key] = "\(value.stringValue ?? "?") \(usage?.totalTokenCount ?? 0)"
            case .failure(let error):
                if case .invalidRequest = error {
                    outcomes[result.key] = "invalidRequest"
                } else {
                    outcomes[result.key] = "\(error)"
                }
            }
            limited[result.key] = result.rateLimitedCount
        }
        #expect(outcomes.count == 10)
        #expect(outcomes["k0"] == "Hello from the fake Gemini server. 11")
        #expect(outcomes["k5"] == "invalidRequest")
        #expect(limited["k3"] == 2)
        #expect(limited["k4"] == 0)
        let asked = try await server.requests().filter { $0.bodyText.contains("prompt number 3\"") }.count
        #expect(asked == 3)
    }

    @Test func batchCreateGetAndBothStatePrefixes() async throws {
        let server = try await FakeGeminiServer()
        defer { server.stop() }
        _ = try await server.control(
            "POST", "/_sophon/batch-faults", body: #"{"pendingFor": 0, "runningFor": 0}"#)
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let created = try await client.createBatch(
            displayName: "t", model: GeminiModel(id: "gemini-3.8-flash"),
            requests: [("x", GenerateContentRequest(contents: [.user("hi")]))])
        #expect(created.displayName == "t")
        #expect(created.requestCount == 1)
        let done = try await client.getBatch(created.name)
        #expect(done.state == .succeeded)
        #expect(done.successfulCount == 1)
        #expect(done.inlinedResponses?.first?.key == "x")
        #expect(GeminiBatchState(wire: "JOB_STATE_EXPIRED") == .expired)
        #expect(GeminiBatchState(wire: "BATCH_STATE_RUNNING") == .running)
        #expect(GeminiBatchState(wire: "nonsense") == .unspecified)
        #expect(try await client.listAllBatches().map(\.name) == [created.name])
        try await client.deleteBatch(created.name)
        #expect(try await client.listAllBatches().isEmpty)
    }
}
