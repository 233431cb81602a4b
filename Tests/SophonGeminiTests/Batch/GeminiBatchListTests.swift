import Foundation
import Testing

@testable import SophonGemini

/// `GET batches` (``GeminiAPIClient/listBatches(pageSize:pageToken:)``): a list is names,
/// states, counts and times; the answers a finished job carries inline are skipped, never
/// decoded (issue 25 point 17).
@Suite struct GeminiBatchListTests {
    /// A page with a finished job carrying its answers inline (one of them not even a valid
    /// answer) and a pending job.
    static let page =
        #"{"operations":[{"name":"batches/done","done":true,"metadata":{"displayName":"night","#
        + #""model":"models/gemini-2.5-flash","state":"BATCH_STATE_SUCCEEDED","createTime":"2026-12-06T10:00:00Z","#
        + #""batchStats":{"requestCount":"2","successfulRequestCount":"2"},"#
        + #""output":{"inlinedResponses":{"inlinedResponses":[{"response":{"candidates":[{"content":"#
        + #"{"parts":[{"text":"hi"}]}}]},"metadata":{"key":"a"}},{"response":5,"metadata":{"key":"b"}}]}}},"#
        + #""response":{"inlinedResponses":{"inlinedResponses":[{"response":{"candidates":[]}}]}}},"#
        + #"{"name":"batches/wait","metadata":{"displayName":"day","state":"BATCH_STATE_PENDING","#
        + #""batchStats":{"requestCount":1,"pendingRequestCount":1}}}],"nextPageToken":"p2"}"#

    @Test func aListedJobIsItsNameStateCountsAndTimesWithoutItsAnswers() async throws {
        let transport = ScriptedTransport([.json(200, Self.page)])
        let client = GeminiAPIClient(configuration: .testing(recorder: SleepRecorder()), transport: transport)
        let (batches, token) = try await client.listBatches(pageSize: 100)
        #expect(token == "p2")
        #expect(batches.map(\.name) == ["batches/done", "batches/wait"])
        #expect(batches.map(\.displayName) == ["night", "day"])
        #expect(batches.map(\.state) == [.succeeded, .pending])
        #expect(batches.map(\.requestCount) == [2, 1])
        #expect(batches.map(\.successfulCount) == [2, 0])
        #expect(batches.map(\.pendingCount) == [0, 1])
        #expect(batches.map(\.createTime) == ["2026-12-06T10:00:00Z", nil])
        #expect(batches.map(\.model) == ["models/gemini-2.5-flash", ""])
        // The inline answers are not read (not even the one that is no answer at all).
        #expect(batches.allSatisfy { $0.inlinedResponses == nil && $0.responsesFile == nil })
        #expect(transport.requests.map(\.url.query) == ["pageSize=100"])
    }

    @Test func getBatchStillReadsTheAnswersOfTheSameOperation() throws {
        // The operation's own decoding (getBatch) reads metadata.output as before.
        let operation =
            #"{"name":"batches/done","metadata":{"state":"BATCH_STATE_SUCCEEDED","output":{"inlinedResponses":"#
            + #"{"inlinedResponses":[{"response":{"candidates":[]},"metadata":{"key":"a"}}]}}}}"#
        let batch = GeminiBatch(
            try JSONDecoder().decode(GeminiBatchOperation.self, from: Data(operation.utf8)))
        #expect(batch.inlinedResponses?.map(\.key) == ["a"])
    }
}
