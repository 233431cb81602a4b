import Foundation
import SophonCore

extension GeminiInteractionRequest {
    /// The same turn for the Interactions API (gemini-wire-format-3.md §1.15): the system
    /// instruction's text, `tools` (functions flat, built-ins by `type`), `toolConfig`'s mode as
    /// `tool_choice`, the response schema as `response_format` (JSON Schema), and the
    /// generation settings this API has (`max_output_tokens`, `seed`, `stop_sequences`,
    /// `thinking_level`). The last content becomes the input (its text, or its blocks).
    /// - Parameters:
    ///   - request: a generateContent request (its earlier contents are not carried: a
    ///     conversation over Interactions keeps its own, ``GeminiInteractionConversation``).
    ///   - model: the model.
    /// - Returns: the request, and the names of the settings this API has no field for (left
    ///   out: `temperature`, `topP`, `topK`, `thinkingBudget`, `safetySettings`, ...), for a
    ///   note to the user.
    public static func converting(_ request: GenerateContentRequest, model: GeminiModel?) -> (
        request: GeminiInteractionRequest, dropped: [String]
    ) {
        let dropped = leavingOutUnsupported(request).dropped
        let config = request.generationConfig
        var generation = GeminiInteractionGenerationConfig(
            maxOutputTokens: config?.maxOutputTokens, seed: config?.seed,
            stopSequences: config?.stopSequences,
            thinkingLevel: config?.thinkingConfig?.thinkingLevel?.lowercased())
        if let mode = request.toolConfig?["functionCallingConfig"]?["mode"]?.stringValue {
            generation.toolChoice = .string(mode.lowercased())
        }
        var responseFormat: JSONValue?
        if let schema = config?.responseJsonSchema ?? config?.responseSchema?.jsonSchemaValue {
            responseFormat = jsonResponseFormat(schema: schema)
        }
        let system = request.systemInstruction?.parts?.compactMap(\.text).joined(separator: "\n")
        let converted = GeminiInteractionRequest(
            model: model, input: .content(content(of: request.contents.last)),
            systemInstruction: system?.isEmpty == false ? system : nil,
            generationConfig: generation.jsonValue == .object([]) ? nil : generation,
            responseFormat: responseFormat, tools: tools(of: request.tools))
        return (converted, dropped)
    }

    /// `request` without the settings the Interactions API has no field for (`temperature`,
    /// `topP`, `topK`, `presencePenalty`, `frequencyPenalty`, `responseModalities`,
    /// `mediaResolution`, `thinkingBudget`, `safetySettings`; gemini-wire-format-3.md §1.3,
    /// §1.6; a config left empty goes too), and their names in that order: what a turn over
    /// this API leaves out. The API has
    /// no token-counting endpoint (§1.2), so counting such a turn goes through countTokens with
    /// the rest.
    public static func leavingOutUnsupported(_ request: GenerateContentRequest) -> (
        request: GenerateContentRequest, dropped: [String]
    ) {
        var kept = request
        var dropped: [String] = []
        func leaveOut<Value>(_ name: String, _ setting: WritableKeyPath<GenerationConfig, Value?>) {
            guard kept.generationConfig?[keyPath: setting] != nil else { return }
            kept.generationConfig?[keyPath: setting] = nil
            dropped.append(name)
        }
        leaveOut("temperature", \.temperature)
        leaveOut("topP", \.topP)
        leaveOut("topK", \.topK)
        leaveOut("presencePenalty", \.presencePenalty)
        leaveOut("frequencyPenalty", \.frequencyPenalty)
        leaveOut("responseModalities", \.responseModalities)
        leaveOut("mediaResolution", \.mediaResolution)
        if kept.generationConfig?.thinkingConfig?.thinkingBudget != nil {
            kept.generationConfig?.thinkingConfig?.thinkingBudget = nil
            dropped.append("thinkingBudget")
        }
        if kept.safetySettings != nil {
            kept.safetySettings = nil
            dropped.append("safetySettings")
        }
        if kept.generationConfig?.thinkingConfig == ThinkingConfig() {
            kept.generationConfig?.thinkingConfig = nil
        }
        if kept.generationConfig == GenerationConfig() { kept.generationConfig = nil }
        return (kept, dropped)
    }

    /// generateContent's `tools` as this API's: each function declaration flat, `codeExecution`
    /// as `code_execution`, `googleSearch` as `google_search`, `urlContext` as `url_context`.
    static func tools(of value: JSONValue?) -> [JSONValue] {
        guard case .array(let entries)? = value else { return [] }
        var tools: [JSONValue] = []
        for entry in entries {
            if case .array(let declarations)? = entry["functionDeclarations"] {
                for declaration in declarations {
                    guard let data = declaration.compactText.data(using: .utf8),
                        let decoded = try? JSONDecoder().decode(FunctionDeclaration.self, from: data)
                    else { continue }
                    tools.append(functionTool(decoded))
                }
            }
            for (key, type) in [
                ("codeExecution", "code_execution"), ("googleSearch", "google_search"),
                ("urlContext", "url_context"),
            ]
            where entry[key] != nil {
                tools.append(.object([JSONMember("type", .string(type))]))
            }
        }
        return tools
    }

    /// A content's parts as blocks: text, inline media, file URIs (other parts are left out).
    public static func content(of content: Content?) -> [GeminiInteractionContent] {
        (content?.parts ?? []).compactMap { part in
            if let text = part.text, part.thought != true { return .text(text) }
            if let blob = part.inlineData { return .media(data: blob.data, mimeType: blob.mimeType) }
            if let file = part.fileData {
                return .media(uri: file.fileUri, mimeType: file.mimeType ?? "application/octet-stream")
            }
            return nil
        }
    }
}
