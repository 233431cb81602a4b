import Foundation
import SophonTestSupport
import Testing

@testable import SophonGemini

/// streamGenerateContent?alt=sse over real HTTP.
@Suite(.childSlots) struct StreamIntegrationTests {
    func collect(
        _ replies: [String], policy: GeminiRetryPolicy = .default
    ) async throws -> (
        chunks: [GenerateContentResponse], error: GeminiError?, paths: [String], waits: [Duration]
    ) {
        let server = try await FakeGeminiServer(replies: replies)
        let recorder = SleepRecorder()
        let client = GeminiAPIClient(
            configuration: .testing(policy: policy, recorder: recorder, baseURL: server.baseURL))
        var chunks: [GenerateContentResponse] = []
        var failure: GeminiError?
        do {
            for try await chunk in client.streamGenerateContent(
                label: "stream", request: GenerateContentRequest(contents: [.user("hi")]))
            {
                chunks.append(chunk)
            }
        } catch let error as GeminiError {
            failure = error
        }
        return (chunks, failure, try await server.paths(), recorder.recorded)
    }

    @Test func chunksArriveWithRunningUsageAndAUsageOnlyLastChunk() async throws {
        let (chunks, error, paths, _) = try await collect([
            #"{"kind": "generate", "chunks": ["Hel", "lo ", "there"], "usageOnlyLast": true, "usage": {"prompt": 4, "candidates": 9}}"#
        ])
        #expect(error == nil)
        var accumulator = GeminiStreamAccumulator()
        chunks.forEach { accumulator.add($0) }
        #expect(accumulator.text == "Hello there")
        #expect(accumulator.chunkCount == 4)
        #expect(accumulator.finishReason == .stop)
        #expect(accumulator.usage?.candidatesTokenCount == 9)
        #expect(accumulator.usage?.totalTokenCount == 13)
        #expect(paths == ["/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"])
    }

    @Test func anEventSplitAcrossReadsIsOneChunk() async throws {
        let (chunks, error, _, _) = try await collect([
            #"{"kind": "generate", "chunks": ["A sentence split mid-string."], "split": true}"#
        ])
        #expect(error == nil)
        #expect(chunks.map(\.text) == ["A sentence split mid-string."])
    }

    @Test(arguments: [GeminiRetryPolicy.default, .minimal])
    func aRawJSONErrorAfterTheFirstChunkIsNotRetried(policy: GeminiRetryPolicy) async throws {
        let (chunks, error, paths, waits) = try await collect(
            [#"{"fault": "stream_error_after", "text": "Partial "}"#, #"{"kind": "generate"}"#],
            policy: policy)
        #expect(chunks.map(\.text) == ["Partial "])
        #expect(
            error
                == .http(
                    status: 500, apiStatus: "INTERNAL", message: "An internal error has occurred.",
                    details: []))
        #expect(paths.count == 1)
        #expect(waits == [])
    }

    @Test(arguments: [GeminiRetryPolicy.default, .minimal])
    func endOfStreamWithoutFinishReasonEndedEarly(policy: GeminiRetryPolicy) async throws {
        let (chunks, error, paths, _) = try await collect(
            [#"{"fault": "stream_cut", "text": "Half an ans"}"#, #"{"kind": "generate"}"#], policy: policy)
        #expect(chunks.count == 1)
        #expect(error == .streamEndedEarly(partialText: "Half an ans"))
        #expect(paths.count == 1)
    }

    /// A streamed reply with no part in any chunk (`{"candidates": []}`, as an event or as plain
    /// JSON) was not cut: it fails as the same reply unstreamed does, once, not retried.
    @Test(arguments: [
        #"{"kind": "sse", "events": [{"candidates": []}]}"#,
        #"{"kind": "json", "body": {"candidates": []}}"#,
        #"{"kind": "sse", "events": [{"candidates": [{"content": {}}]}]}"#,
    ])
    func aStreamWithNoPartIsAnEmptyResponseAsUnstreamed(reply: String) async throws {
        let (chunks, error, paths, waits) = try await collect([reply, #"{"kind": "generate"}"#])
        #expect(chunks.count == 1)
        #expect(error == .emptyResponse)
        #expect(paths.count == 1)
        #expect(waits == [])
    }

    @Test(arguments: [(GeminiRetryPolicy.default, Duration.milliseconds(880)), (.minimal, .seconds(1))])
    func anErrorBeforeTheFirstChunkIsRetried(policy: GeminiRetryPolicy, wait: Duration) async throws {
        let (chunks, error, paths, waits) = try await collect(
            [#"{"fault": "overloaded"}"#, #"{"kind": "generate", "chunks": ["fine"]}"#], policy: policy)
        #expect(error == nil)
        #expect(chunks.map(\.text) == ["fine"])
        #expect(paths.count == 2)
        #expect(waits == [wait])
    }

    /// A server that answers a stream request with plain JSON (one reply, or the JSON array
    /// Google sends without `alt=sse`) is read as that reply's chunks, not refused.
    @Test func aPlainJSONBodyIsReadAsTheChunks() async throws {
        let one =
            #"{"kind": "json", "body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "whole"}]}, "finishReason": "STOP"}]}}"#
        let (chunks, error, paths, _) = try await collect([one])
        #expect(error == nil)
        #expect(chunks.map(\.text) == ["whole"])
        #expect(paths.count == 1)

        let array =
            #"{"kind": "raw", "contentType": "application/json", "text": "[{\n  \"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"Hel\"}]}}]\n}\n,\r\n{\n  \"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"lo\"}]}, \"finishReason\": \"STOP\"}]\n}\n]"}"#
        let streamed = try await collect([array])
        #expect(streamed.error == nil)
        #expect(streamed.chunks.map(\.text) == ["Hel", "lo"])
    }

    /// Plain JSON that is not a reply stays a malformed stream (retried before any chunk).
    @Test func plainJSONThatIsNoReplyIsABadResponse() async throws {
        let other = #"{"kind": "json", "body": {"greeting": "hi"}}"#
        let (chunks, error, paths, _) = try await collect([other, other, other])
        #expect(chunks.isEmpty)
        #expect(error == .transport(.badResponse, detail: #"Unexpected stream text: { "greeting": "hi" }"#))
        #expect(paths.count == 3)
    }

    @Test func aWrongKeyInAStreamIsMasked() async throws {
        let server = try await FakeGeminiServer(key: "server-key")
        let key = "AIzaSyA-stream-key-0123456789abcdefghij"
        let client = GeminiAPIClient(
            configuration: .testing(key: key, recorder: SleepRecorder(), baseURL: server.baseURL))
        var failure: GeminiError?
        do {
            for try await _ in client.streamGenerateContent(
                label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
            {}
        } catch let error as GeminiError {
            failure = error
        }
        let description = try #require(failure).description(language: "en")
        #expect(!description.contains(key))
        #expect(description.contains("••••ghij"))
    }
}
