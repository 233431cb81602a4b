import Foundation
import Testing

@testable import SophonGemini

/// The fast reply decoder gives exactly what `JSONDecoder` gives, or gives up.
struct FastResponseDecodingTests {
    static let read: [String] = [
        #"{"candidates": [{"content": {"parts": [{"text": "ok"}], "role": "model"}, "finishReason": "STOP", "index": 0}]}"#,
        #"{"candidates": [{"content": {"parts": [{"text": "a"}, {"text": "b", "thought": true}, {"thoughtSignature": "c2ln"}]}}], "modelVersion": "gemini-3.8-flash", "responseId": "r-1"}"#,
        #"{"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS", "finishMessage": "cut", "tokenCount": 12, "avgLogprobs": -0.25, "safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE", "blocked": false}], "citationMetadata": {"citationSources": [{"startIndex": 1, "endIndex": 9, "uri": "https://example.org", "license": "mit"}]}}]}"#,
        #"{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT", "blockReasonMessage": "no", "safetyRatings": []}, "usageMetadata": {"promptTokenCount": 3}}"#,
        #"{"usageMetadata": {"promptTokenCount": 3, "cachedContentTokenCount": 1, "candidatesTokenCount": 4, "toolUsePromptTokenCount": 0, "thoughtsTokenCount": 9, "totalTokenCount": 17, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3}], "cacheTokensDetails": [], "candidatesTokensDetails": [{"modality": "IMAGE"}], "toolUsePromptTokensDetails": [], "serviceTier": "standard", "newField": {"x": 1}}}"#,
        #"{"candidates": null, "promptFeedback": null, "usageMetadata": {"promptTokenCount": null}, "unknown": [1, 2, {"a": "b"}]}"#,
        #"{"candidates": [{"finishReason": "SOMETHING_NEW", "index": -0, "avgLogprobs": 12345678901234567890}]}"#,
        #"  {"candidates": [{"content": {"parts": [{"text": "caf\u00e9 \ud83d\ude00 \"q\" \\ \n"}]}}]}  "#,
        #"{}"#,
    ]

    static let declined: [String] = [
        #"{"candidates": [{"content": {"parts": [{"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]}}]}"#,
        #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"a": 1, "a": 2}}}]}}]}"#,
        #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": [{"a": 1, "a": 2}]}}]}}]}"#,
        #"{"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}"#,
        #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": 7}}]}}]}"#,
        #"{"candidates": [{"groundingMetadata": {"webSearchQueries": ["x"]}}]}"#,
        #"{"modelStatus": {"modelStage": "STABLE"}}"#,
        #"{"candidates": [{"index": 1.0}]}"#,
        #"{"candidates": [{"index": 1e2}]}"#,
        #"{"candidates": [{"tokenCount": 99999999999999999999}]}"#,
        #"{"candidates": [{"avgLogprobs": 1e400}]}"#,
        #"{"candidates": [{"content": {"parts": [{"text": 7}]}}]}"#,
        #"{"candidates": [{"content": {"parts": [{"thought": "yes"}]}}]}"#,
        #"{"candidates": [null]}"#,
        #"{"candidates": {"content": {}}}"#,
        #"{"modelVersion": "a", "modelVersion": "b"}"#,
        #"[1, 2]"#,
        #"{"candidates": [}"#,
        "",
    ]

    @Test(arguments: read)
    func readsWhatJSONDecoderReads(_ body: String) throws {
        let data = Data(body.utf8)
        let expected = try JSONDecoder().decode(GenerateContentResponse.self, from: data)
        let fast = try #require(FastResponseDecoding.decode(data))
        #expect(fast == expected)
    }

    @Test(arguments: declined)
    func declinesWhatItDoesNotReadExactly(_ body: String) {
        #expect(FastResponseDecoding.decode(Data(body.utf8)) == nil)
    }

    /// A function call's `args` keep the model's key order and number literals (`JSONDecoder`
    /// would sort the keys and read `2.50` as `2.5`), so calls print and go back as sent.
    @Test func functionCallArgumentsKeepTheirOrderAndLiterals() throws {
        let body =
            #"{"candidates": [{"content": {"parts": [{"functionCall": {"id": "fc-1", "name": "f", "args": {"unit": "c", "city": {"z": 1, "a": [2.50, {"y": null, "b": true}]}}}, "thoughtSignature": "c2ln"}], "role": "model"}}]}"#
        let fast = try #require(FastResponseDecoding.decode(Data(body.utf8)))
        let part = try #require(fast.candidates?.first?.content?.parts?.first)
        #expect(part.functionCall?.id == "fc-1")
        #expect(part.functionCall?.name == "f")
        #expect(part.thoughtSignature == "c2ln")
        #expect(
            part.functionCall?.args?.compactText
                == #"{"unit":"c","city":{"z":1,"a":[2.50,{"y":null,"b":true}]}}"#)
        let withoutArgs = #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "now"}}]}}]}"#
        let call = try #require(FastResponseDecoding.decode(Data(withoutArgs.utf8)))
        #expect(call.candidates?.first?.content?.parts?.first?.functionCall == FunctionCall(name: "now"))
    }

    @Test func readsTheRepliesOfTheExampleTapesAsJSONDecoderDoes() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../examples")
        var compared = 0
        for name in ["tour.tape", "regression.tape"] {
            let text = try String(contentsOf: root.appending(path: name), encoding: .utf8)
            for line in text.split(separator: "\n").dropFirst() {
                let exchange = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                guard let response = exchange?["response"] as? [String: Any],
                    response["status"] as? Int == 200, let body = response["body"] as? [String: Any]
                else { continue }
                let data = try JSONSerialization.data(withJSONObject: body)
                let expected = try JSONDecoder().decode(GenerateContentResponse.self, from: data)
                #expect(FastResponseDecoding.decode(data) == expected)
                compared += 1
            }
        }
        #expect(compared == 8)  // The unary 200 replies of the two tapes.
    }

    @Test func theClientDecodesThroughTheFastPathAndFallsBack() async throws {
        let functionCall =
            #"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]}}]}"#
        let transport = ScriptedTransport([
            .json(200, Self.read[0]), .json(200, functionCall),
        ])
        let client = GeminiAPIClient(configuration: .testing(recorder: SleepRecorder()), transport: transport)
        let first = try await client.generateText(label: "t", contents: [.user("hi")])
        #expect(first.value == "ok")
        let second = try await client.sendRequest(label: "t") { _ in
            GenerateContentRequest(contents: [.user("hi")])
        }
        #expect(second.response.candidates?.first?.content?.parts?.first?.functionCall?.name == "f")
        #expect(
            second.response.candidates?.first?.content?.parts?.first?.functionCall?.args?.compactText
                == #"{"a":1}"#)
    }
}
