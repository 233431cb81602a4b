import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Decoding the shapes real replies have, and deterministic request encoding.
@Suite struct DTOTests {
    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test(arguments: [
        #"{"candidates": [{"content": {}, "finishReason": "STOP"}]}"#,
        #"{"candidates": [{"content": {"role": "model"}}]}"#,
        #"{"candidates": []}"#,
        #"{"candidates": [{"finishReason": "OTHER", "finishMessage": "Unexpected."}]}"#,
        #"{"candidates": [{"content": {"parts": [{"text": "", "thoughtSignature": "AAAA"}]}, "finishReason": "WHO_KNOWS"}]}"#,
        #"{"promptFeedback": {"blockReason": "NEW_BLOCK", "safetyRatings": [{"category": "X", "probability": "ODD"}]}}"#,
        #"{"usageMetadata": {"promptTokenCount": 3, "serviceTier": "standard", "newField": 1}, "modelStatus": {"x": [1]}}"#,
        "{}",
    ])
    func realShapesDecode(text: String) throws {
        _ = try decode(GenerateContentResponse.self, text)
    }

    @Test func unknownEnumValuesKeepTheirRawString() throws {
        let response = try decode(
            GenerateContentResponse.self,
            #"{"candidates": [{"content": {"parts": [{"text": "Done."}]}, "finishReason": "BRAND_NEW_REASON", "safetyRatings": [{"category": "HARM_CATEGORY_X", "probability": "SOMEWHAT"}]}], "promptFeedback": {"blockReason": "NEW_BLOCK"}}"#
        )
        #expect(response.finishReason?.rawValue == "BRAND_NEW_REASON")
        #expect(response.candidates?.first?.safetyRatings?.first?.probability?.rawValue == "SOMEWHAT")
        #expect(response.promptFeedback?.blockReason?.rawValue == "NEW_BLOCK")
        #expect(response.text == "Done.")
    }

    @Test func functionCallArgumentsAndInlineDataRoundTrip() throws {
        let request = GenerateContentRequest(
            contents: [
                Content(
                    role: "user",
                    parts: [
                        .inlineData(mimeType: "image/png", data: Data([0x89, 0x50, 0x4E, 0x47])),
                        Part(
                            functionCall: FunctionCall(
                                name: "lookup",
                                args: .object([
                                    JSONMember("city", .string("Lyon")), JSONMember("limit", .integer(3)),
                                ]))),
                    ])
            ],
            tools: .array([.object([JSONMember("functionDeclarations", .array([]))])]))
        let text = try OrderedJSONEncoder().encode(request).compactText
        #expect(
            text
                == #"{"contents":[{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw=="}},{"functionCall":{"name":"lookup","args":{"city":"Lyon","limit":3}}}]}],"tools":[{"functionDeclarations":[]}]}"#
        )
        let decoded = try decode(GenerateContentRequest.self, text)
        #expect(decoded.contents.first?.parts?.first?.inlineData?.data == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(decoded.contents.first?.parts?.last?.functionCall?.args?["limit"] == .integer(3))
    }

    @Test func requestEncodingIsDeterministicCamelCaseWithoutNils() throws {
        let request = GenerateContentRequest(
            contents: [.user("Hi")], systemInstruction: Content(role: nil, parts: [.text("Be brief.")]),
            safetySettings: [
                SafetySetting(category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH")
            ],
            generationConfig: GenerationConfig(
                stopSequences: ["END"], maxOutputTokens: 64, temperature: 0.7, topK: 40,
                thinkingConfig: ThinkingConfig(includeThoughts: true, thinkingBudget: 0)))
        let expected =
            #"{"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"systemInstruction":{"parts":[{"text":"Be brief."}]},"safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_ONLY_HIGH"}],"generationConfig":{"stopSequences":["END"],"maxOutputTokens":64,"temperature":0.7,"topK":40,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":0}}}"#
        for _ in 0..<5 {
            #expect(String(decoding: try OrderedJSONEncoder().encodeData(request), as: UTF8.self) == expected)
        }
    }

    @Test func errorBodyWithEveryDetailKind() throws {
        let text = """
            {
              "error": {
                "code": 429,
                "message": "You exceeded your current quota. Please retry in 34.4s.",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                  {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}},
                  {"@type": "type.googleapis.com/google.rpc.Help", "links": [{"description": "Quotas", "url": "https://ai.google.dev"}]},
                  {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "m", "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "quotaDimensions": {"model": "gemini-2.5-flash"}, "quotaValue": "10"}]},
                  {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "34.4s"},
                  {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "contents", "description": "empty"}]},
                  {"@type": "type.googleapis.com/google.rpc.LocalizedMessage", "locale": "en-US", "message": "Quota."},
                  {"@type": "type.googleapis.com/google.rpc.DebugInfo", "detail": "trace", "stackEntries": []}
                ]
              }
            }
            """
        let status = try #require(GoogleRPCErrorBody.parse(Data(text.utf8)))
        #expect(status.code == 429)
        #expect(status.errorReason == "RATE_LIMIT_EXCEEDED")
        #expect(status.retryDelay == .milliseconds(34_400))
        #expect(
            status.quotaViolations.map(\.quotaId) == ["GenerateRequestsPerMinutePerProjectPerModel-FreeTier"])
        #expect(status.quotaViolations.first?.isPerDay == false)
        #expect(status.fieldViolations == [FieldViolation(field: "contents", description: "empty")])
        #expect(status.details?[1].links?.first?.url == "https://ai.google.dev")
        #expect(GoogleRPCErrorBody.parse(Data("[\(text)]".utf8)) == status)
        #expect(GoogleRPCErrorBody.parse(Data("[\(text),\(text)]".utf8)) == nil)
        #expect(GoogleRPCErrorBody.parse(Data("<html>502</html>".utf8)) == nil)
    }

    @Test(arguments: [
        ("26s", Duration.seconds(26)), ("34.4s", .milliseconds(34_400)), ("0.250s", .milliseconds(250)),
        ("1.000000001s", .nanoseconds(1_000_000_001)), (".5s", .milliseconds(500)),
    ])
    func protobufDurations(text: String, expected: Duration) {
        #expect(ProtobufDuration.parse(text) == expected)
    }

    @Test(arguments: ["", "s", "26", "-1s", "1.2.3s", "abc", "1e3s", "99999999999999999999s"])
    func invalidProtobufDurations(text: String) {
        #expect(ProtobufDuration.parse(text) == nil)
    }

    @Test func modelsPageDecodesWithMissingFields() throws {
        let page = try decode(
            ListModelsResponse.self,
            #"{"models": [{"name": "models/embedding-001", "version": "001", "supportedGenerationMethods": ["embedContent"]}, {"name": "models/gemini-3-flash-preview", "version": "3-flash-preview-12-2025", "thinking": true, "topK": 64}]}"#
        )
        #expect(page.models?.map(\.id) == ["embedding-001", "gemini-3-flash-preview"])
        #expect(page.nextPageToken == nil)
        #expect(page.models?.last?.thinking == true)
    }

    @Test func vertexPublisherModelsPageDecodesIntoModelsWithBareIDs() throws {
        let page = try decode(
            ListModelsResponse.self,
            #"{"publisherModels": [{"name": "publishers/google/models/gemini-3.8-flash", "versionId": "001", "launchStage": "GA"}, {"name": "publishers/meta/models/llama-4"}], "nextPageToken": "p2"}"#
        )
        #expect(page.models?.map(\.id) == ["gemini-3.8-flash", "meta/llama-4"])
        #expect(page.nextPageToken == "p2")
        let encoded = String(decoding: try OrderedJSONEncoder().encodeData(page), as: UTF8.self)
        #expect(
            encoded
                == #"{"models":[{"name":"publishers/google/models/gemini-3.8-flash"},{"name":"publishers/meta/models/llama-4"}],"nextPageToken":"p2"}"#
        )
    }
}
