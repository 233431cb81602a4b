import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// The Interactions API's values without a server: events folded into steps, the
/// conversation's pending calls and repeated steps, a generateContent turn translated, and the
/// string error codes.
@Suite struct InteractionValuesTests {
    func event(_ text: String) throws -> GeminiInteractionEvent {
        GeminiInteractionEvent(json: try JSONValue(parsing: text))
    }

    @Test func summaryAnnotationAndSignatureDeltasBuildTheirSteps() throws {
        var assembler = GeminiInteractionAssembler()
        for text in [
            #"{"event_type":"interaction.created","event_id":"e1","interaction":{"id":"v1_a","status":"in_progress","model":"m"}}"#,
            #"{"event_type":"step.start","index":0,"step":{"type":"thought","signature":"","summary":[]}}"#,
            #"{"event_type":"step.delta","index":0,"delta":{"type":"thought_summary","content":{"type":"text","text":"Weighing it"}}}"#,
            #"{"event_type":"step.delta","index":0,"delta":{"type":"thought_signature","signature":"SIG"}}"#,
            #"{"event_type":"step.stop","index":0}"#,
            #"{"event_type":"step.start","index":1,"step":{"type":"model_output","content":[{"type":"text","text":"It is "}]}}"#,
            #"{"event_type":"step.delta","index":1,"delta":{"type":"text","text":"sunny."}}"#,
            #"{"event_type":"step.delta","index":1,"delta":{"type":"text_annotation_delta","annotations":[{"type":"url_citation","url":"https://w.example","title":"Weather"}]}}"#,
            #"{"event_type":"step.stop","index":1}"#,
            #"{"event_type":"interaction.completed","event_id":"e9","interaction":{"id":"v1_a","status":"completed","usage":{"total_tokens":3}}}"#,
        ] {
            assembler.add(try event(text))
        }
        let interaction = assembler.interaction
        #expect(assembler.lastEventID == "e9")
        #expect(assembler.text == "It is sunny.")
        #expect(interaction.steps[0].kind == .thought(signature: "SIG", summary: ["Weighing it"]))
        #expect(interaction.outputText == "It is sunny.")
        #expect(interaction.sources == [GeminiInteractionSource(title: "Weather", url: "https://w.example")])
        #expect(interaction.usage?.totalTokens == 3)
        #expect(interaction.model == "m")
    }

    @Test func aRepeatedCallIsNotAddedTwiceAndACallIsPendingUntilItsResult() throws {
        let call = #"{"type":"function_call","id":"c1","name":"f","arguments":{"a":1}}"#
        var conversation = GeminiInteractionConversation()
        try conversation.appendUser([.text("go")])
        conversation.record(
            try GeminiInteraction(
                json: JSONValue(parsing: #"{"id":"v1","status":"requires_action","steps":[\#(call)]}"#)))
        #expect(conversation.pendingCalls.map(\.id) == ["c1"])
        #expect(throws: GeminiToolError.unansweredCalls(conversation.pendingCalls)) {
            try conversation.appendUser([.text("again")])
        }
        try conversation.answer([.string("r1")])
        #expect(conversation.pendingCalls.isEmpty)
        let next = conversation.applied(to: GeminiInteractionRequest(input: .text("")))
        #expect(next.previousInteractionID == "v1")
        #expect(
            next.input.jsonValue.compactText
                == #"[{"type":"function_result","call_id":"c1","name":"f","result":"r1"}]"#)
        // The reply repeats the earlier call before its answer (Google's own sample does).
        conversation.record(
            try GeminiInteraction(
                json: JSONValue(
                    parsing:
                        #"{"id":"v2","status":"completed","steps":[\#(call),{"type":"model_output","content":[{"type":"text","text":"done"}]}]}"#
                )))
        #expect(
            conversation.history.map(\.type) == [
                "user_input", "function_call", "function_result", "model_output",
            ])
        #expect(conversation.lastInteractionID == "v2")
    }

    @Test func aGenerateContentTurnIsTranslatedAndWhatThisAPILacksIsNamed() throws {
        var config = GenerationConfig(maxOutputTokens: 100, temperature: 0.3)
        config.thinkingConfig = ThinkingConfig(thinkingLevel: "HIGH")
        config.topK = 4
        let request = GenerateContentRequest(
            contents: [Content(role: "user", parts: [.text("Weather?")])],
            systemInstruction: Content(role: nil, parts: [.text("Be brief.")]),
            tools: try JSONValue(
                parsing: #"[{"functionDeclarations":[{"name":"f","description":"d"}]},{"googleSearch":{}}]"#),
            toolConfig: try JSONValue(parsing: #"{"functionCallingConfig":{"mode":"ANY"}}"#),
            generationConfig: config)
        let (converted, dropped) = GeminiInteractionRequest.converting(request, model: nil)
        #expect(dropped == ["temperature", "topK"])
        #expect(
            converted.jsonValue(modelID: "m").compactText
                == #"{"model":"m","input":[{"type":"text","text":"Weather?"}],"system_instruction":"Be brief.","#
                + #""tools":[{"type":"function","name":"f","description":"d"},{"type":"google_search"}],"#
                + #""generation_config":{"max_output_tokens":100,"thinking_level":"high","tool_choice":"any"}}"#
        )
    }

    @Test func whatTheAPILacksIsLeftOutOfACountedTurnAndTheRestKept() throws {
        var config = GenerationConfig(maxOutputTokens: 100, temperature: 0.3)
        config.thinkingConfig = ThinkingConfig(thinkingBudget: 512)
        let request = GenerateContentRequest(
            contents: [Content(role: "user", parts: [.text("Weather?")])],
            safetySettings: [SafetySetting(category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE")],
            generationConfig: config)
        let (kept, dropped) = GeminiInteractionRequest.leavingOutUnsupported(request)
        #expect(dropped == ["temperature", "thinkingBudget", "safetySettings"])
        #expect(dropped == GeminiInteractionRequest.converting(request, model: nil).dropped)
        #expect(
            try OrderedJSONEncoder().encode(kept).compactText
                == #"{"contents":[{"role":"user","parts":[{"text":"Weather?"}]}],"#
                + #""generationConfig":{"maxOutputTokens":100}}"#)
    }

    @Test func inlineMediaOfTheTrailingOutputIsTheReplysMediaStreamedOrWhole() throws {
        let whole = try GeminiInteraction(
            json: try JSONValue(
                parsing: #"{"id":"v1_m","status":"completed","steps":[{"type":"model_output","content":["#
                    + #"{"type":"image","data":"AAE=","mime_type":"image/png"}]},{"type":"user_input","content":[]},"#
                    + #"{"type":"model_output","content":[{"type":"text","text":"Here."},"#
                    + #"{"type":"audio","data":"AgM=","mime_type":"audio/wav"},"#
                    + #"{"type":"image","uri":"https://x.example/a.png","mime_type":"image/png"}]}]}"#))
        #expect(whole.outputMedia == [.inlineData(mimeType: "audio/wav", data: Data([2, 3]))])
        var assembler = GeminiInteractionAssembler()
        for text in [
            #"{"event_type":"interaction.created","interaction":{"id":"v1_s","status":"in_progress"}}"#,
            #"{"event_type":"step.start","index":0,"step":{"type":"model_output","content":[{"type":"text","text":"A"}]}}"#,
            #"{"event_type":"step.delta","index":0,"delta":{"type":"image","data":"AAE=","mime_type":"image/png"}}"#,
            #"{"event_type":"step.stop","index":0}"#,
            #"{"event_type":"interaction.completed","interaction":{"id":"v1_s","status":"completed"}}"#,
        ] {
            assembler.add(try event(text))
        }
        #expect(assembler.interaction.outputText == "A")
        #expect(
            assembler.interaction.outputMedia == [.inlineData(mimeType: "image/png", data: Data([0, 1]))])
    }

    @Test(arguments: [
        (429, #"{"error":{"code":"rate_limit_exceeded","message":"slow down"}}"#, "rateLimited"),
        (429, #"{"error":{"code":"quota_exceeded","message":"daily quota"}}"#, "quotaExhausted"),
        (400, #"{"error":{"code":"invalid_request","message":"bad"}}"#, "invalidRequest"),
        (503, #"{"error":{"code":"unavailable","message":"busy"}}"#, "http"),
    ])
    func aStringCodeKeepsTheStatusKind(status: Int, body: String, kind: String) {
        let error = GeminiInteractionErrorBody.classify(status: status, headers: [:], body: Data(body.utf8))
            .error
        let name: String =
            switch error {
            case .rateLimited: "rateLimited"
            case .invalidRequest: "invalidRequest"
            case .quotaExhausted: "quotaExhausted"
            case .http: "http"
            default: "\(error)"
            }
        #expect(name == kind)
        #expect(error.isRetryable == (kind == "rateLimited" || kind == "http"))
    }
}
