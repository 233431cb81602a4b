import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// ``GeminiAnswerReader``: `run` (a bulk run's call) and `batch results` (a Batch item) read
/// the same reply to the same value.
@Suite struct GeminiAnswerReaderTests {
    static let schema = GeminiSchema.object(
        properties: ["title": .string(), "year": .integer()], required: ["title", "year"])

    static func reply(_ parts: String) -> String {
        #"{"candidates": [{"content": {"parts": \#(parts), "role": "model"}, "finishReason": "STOP"}], "#
            + #""usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}"#
    }

    static let cases:
        [(request: GenerateContentRequest, schema: GeminiSchema?, parts: String, value: String)] = [
            (
                GenerateContentRequest(contents: [.user("film?")]), schema,
                #"[{"text": "```json\n{\"title\": \"Arrival\", \"year\": \"2016\"}\n```"}]"#,
                #"{"title":"Arrival","year":2016}"#
            ),
            (
                GenerateContentRequest(contents: [.user("weather?")]), nil,
                #"[{"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Oslo"}}}]"#,
                #"{"functionCalls":[{"id":"c1","name":"get_weather","args":{"city":"Oslo"}}]}"#
            ),
            (
                GenerateContentRequest(
                    contents: [.user("json?")],
                    generationConfig: GenerationConfig(responseMimeType: "application/json")),
                nil, #"[{"text": "{\"a\": [1, 2]}"}]"#, #"{"a":[1,2]}"#
            ),
            (GenerateContentRequest(contents: [.user("hi")]), nil, #"[{"text": "Hello."}]"#, #""Hello.""#),
            // JSON mode without a schema: the JSON found and repaired (a fence, a trailing comma).
            (
                GenerateContentRequest(
                    contents: [.user("json?")],
                    generationConfig: GenerationConfig(responseMimeType: "application/json")),
                nil, #"[{"text": "```json\n{\"a\": 2,}\n```"}]"#, #"{"a":2}"#
            ),
        ]

    @Test(arguments: 0..<5) func aRunCallAndABatchItemReadTheSameReplyToTheSameValue(index: Int) async throws
    {
        let example = Self.cases[index]
        let body = Self.reply(example.parts)
        let transport = ScriptedTransport([.json(200, body)])
        let client = GeminiAPIClient(configuration: .testing(recorder: SleepRecorder()), transport: transport)
        let requests = AsyncStream<BulkRequest> { continuation in
            continuation.yield(
                BulkRequest(key: "k", request: example.request, schema: example.schema, model: nil))
            continuation.finish()
        }
        var run: JSONValue?
        for try await result in client.bulkRun(requests, options: BulkRunOptions(jobs: 1)) {
            guard case .success(let value, _, _) = result.outcome else {
                Issue.record("run failed: \(result.outcome)")
                return
            }
            run = value
        }
        let response = try JSONDecoder().decode(GenerateContentResponse.self, from: Data(body.utf8))
        let item = GeminiBatchItem(key: "k", response: response, error: nil)
        let reader = GeminiAnswerReader(
            schema: example.schema,
            wantsJSON: example.schema != nil || example.request.generationConfig?.responseMimeType != nil)
        guard case .success(let batch) = reader.read(item) else {
            Issue.record("batch failed: \(reader.read(item))")
            return
        }
        #expect(run?.compactText == example.value)
        #expect(batch.value.compactText == example.value)
    }

    @Test func aPerItemDailyQuotaErrorIsQuotaExhaustedAsALiveCallsIs() {
        let error = GoogleRPCStatus(
            code: 429, message: "Quota exceeded.", status: "RESOURCE_EXHAUSTED",
            details: [
                GoogleRPCErrorDetail(
                    type: "type.googleapis.com/google.rpc.QuotaFailure",
                    violations: [QuotaViolation(quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier")]
                )
            ])
        let read = GeminiAnswerReader().read(GeminiBatchItem(key: "k", response: nil, error: error))
        guard case .failure(.quotaExhausted(let quotaId, let message)) = read else {
            Issue.record("expected quotaExhausted, got \(read)")
            return
        }
        #expect(quotaId == "GenerateRequestsPerDayPerProjectPerModel-FreeTier")
        #expect(message == "Quota exceeded.")
    }

    @Test func aSchemaAnswerThatDoesNotFitIsDecodingFailedWithItsViolations() {
        let response = GenerateContentResponse(
            candidates: [Candidate(content: Content(role: "model", parts: [.text(#"{"title": "Arrival"}"#)]))]
        )
        #expect(throws: GeminiError.self) { try GeminiAnswerReader(schema: Self.schema).read(response) }
    }
}
