import Foundation
import Testing

@testable import SophonGemini

/// Operation bodies as docs/running-many-prompts.md says the server sends them.
@Suite struct GeminiBatchDecodingTests {
    static func decode(_ text: String) throws -> GeminiBatch {
        GeminiBatch(try JSONDecoder().decode(GeminiBatchOperation.self, from: Data(text.utf8)))
    }

    @Test func aPendingJobHasStringCountsAndMissingOnesAreZero() throws {
        let batch = try Self.decode(
            #"{"name":"batches/x","metadata":{"displayName":"n","model":"models/m","state":"BATCH_STATE_PENDING","#
                + #""batchStats":{"requestCount":"2","pendingRequestCount":"2"}}}"#)
        #expect(batch.name == "batches/x")
        #expect(batch.state == .pending)
        #expect(batch.requestCount == 2)
        #expect(batch.pendingCount == 2)
        #expect(batch.successfulCount == 0)
        #expect(batch.inlinedResponses == nil)
    }

    @Test func answersOnlyInResponseAreReadWithJobStatePrefixAndNumberKeys() throws {
        let batch = try Self.decode(
            #"{"name":"batches/x","done":true,"metadata":{"state":"JOB_STATE_SUCCEEDED","#
                + #""batchStats":{"requestCount":2,"successfulRequestCount":"1","failedRequestCount":"1"}},"#
                + #""response":{"inlinedResponses":{"inlinedResponses":["#
                + #"{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"},"metadata":{"key":7}},"#
                + #"{"response":{"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"#
                + #""finishReason":"STOP"}]}}]}}}"#)
        #expect(batch.state == .succeeded)
        #expect(batch.requestCount == 2)
        #expect(batch.inlinedResponses?.map(\.key) == ["7", nil])
        #expect(batch.inlinedResponses?.first?.error?.code == 400)
        guard case .success(let answer)? = batch.inlinedResponses?.last?.outcome(structured: false) else {
            Issue.record("no answer")
            return
        }
        #expect(answer.value == .string("hi"))
        guard
            case .failure(.invalidRequest(let message, _, _))? = batch.inlinedResponses?.first?.outcome(
                structured: false)
        else {
            Issue.record("no per-item error")
            return
        }
        #expect(message == "bad")
    }

    @Test func aBlockedPromptIsAFailureNotAnEmptySuccess() {
        let item = GeminiBatchItem(
            key: "k", response: GenerateContentResponse(promptFeedback: PromptFeedback(blockReason: .safety)),
            error: nil)
        guard case .failure(.promptBlocked)? = Optional(item.outcome(structured: true)) else {
            Issue.record("not promptBlocked")
            return
        }
    }
}
