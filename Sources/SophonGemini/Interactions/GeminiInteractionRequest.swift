import Foundation
import SophonCore

/// What `POST /v1beta/interactions` creates (docs/interactions.md): a model or an
/// agent, the input, and the fields the API scopes to one interaction. Encoded snake_case by
/// ``jsonValue(modelID:stream:)``; absent fields are left out.
///
/// `tools`, `system_instruction` and `generation_config` are interaction-scoped: a request
/// continuing with ``previousInteractionID`` must carry them again.
public struct GeminiInteractionRequest: Sendable, Hashable {
    /// The model; `nil` (and no ``agent``) uses the client's selected model.
    public var model: GeminiModel?
    /// An agent (`deep-research-preview-04-2026`, ...) instead of a model.
    public var agent: String?
    /// `input`.
    public var input: GeminiInteractionInput
    /// `system_instruction` (a plain string on this API).
    public var systemInstruction: String?
    /// `generation_config` (model interactions only).
    public var generationConfig: GeminiInteractionGenerationConfig?
    /// `response_format`: e.g. ``jsonResponseFormat(schema:)``.
    public var responseFormat: JSONValue?
    /// `tools`, each an object discriminated by `type` (see ``functionTool(_:)``).
    public var tools: [JSONValue]
    /// `store` (the API's default is true); false sends no id to continue from: the caller
    /// re-sends the history.
    public var store: Bool?
    /// `previous_interaction_id`: continue that interaction's stored conversation.
    public var previousInteractionID: String?
    /// `background`: return at once and run on the server (agents require it).
    public var background: Bool?
    /// `agent_config` (e.g. `{"type": "deep-research", "thinking_summaries": "auto"}`).
    public var agentConfig: JSONValue?

    /// Creates a request.
    public init(
        model: GeminiModel? = nil, agent: String? = nil, input: GeminiInteractionInput,
        systemInstruction: String? = nil, generationConfig: GeminiInteractionGenerationConfig? = nil,
        responseFormat: JSONValue? = nil, tools: [JSONValue] = [], store: Bool? = nil,
        previousInteractionID: String? = nil, background: Bool? = nil, agentConfig: JSONValue? = nil
    ) {
        self.model = model
        self.agent = agent
        self.input = input
        self.systemInstruction = systemInstruction
        self.generationConfig = generationConfig
        self.responseFormat = responseFormat
        self.tools = tools
        self.store = store
        self.previousInteractionID = previousInteractionID
        self.background = background
        self.agentConfig = agentConfig
    }

    /// `{"type": "text", "mime_type": "application/json", "schema": SCHEMA}`: structured output
    /// as JSON of a JSON Schema.
    public static func jsonResponseFormat(schema: JSONValue) -> JSONValue {
        .object([
            JSONMember("type", .string("text")), JSONMember("mime_type", .string("application/json")),
            JSONMember("schema", schema),
        ])
    }

    /// `{"type": "function", "name", "description"?, "parameters"?}`: a function as this API
    /// declares it, flat, its parameters as JSON Schema.
    public static func functionTool(_ declaration: FunctionDeclaration) -> JSONValue {
        var members = [
            JSONMember("type", .string("function")), JSONMember("name", .string(declaration.name)),
        ]
        if let description = declaration.description {
            members.append(JSONMember("description", .string(description)))
        }
        if let schema = declaration.parametersJsonSchema ?? declaration.parameters?.jsonSchemaValue {
            members.append(JSONMember("parameters", schema))
        }
        return .object(members)
    }

    /// The body: `model` (`modelID`) or `agent`, `input`, then the set fields, and
    /// `"stream": true` when `stream`.
    public func jsonValue(modelID: String?, stream: Bool = false) -> JSONValue {
        var members: [JSONMember] = []
        if let agent {
            members.append(JSONMember("agent", .string(agent)))
        } else if let modelID {
            members.append(JSONMember("model", .string(modelID)))
        }
        members.append(JSONMember("input", input.jsonValue))
        if let systemInstruction {
            members.append(JSONMember("system_instruction", .string(systemInstruction)))
        }
        if !tools.isEmpty { members.append(JSONMember("tools", .array(tools))) }
        if let config = generationConfig?.jsonValue, config != .object([]) {
            members.append(JSONMember("generation_config", config))
        }
        if let responseFormat { members.append(JSONMember("response_format", responseFormat)) }
        if let agentConfig { members.append(JSONMember("agent_config", agentConfig)) }
        if let previousInteractionID {
            members.append(JSONMember("previous_interaction_id", .string(previousInteractionID)))
        }
        if let store { members.append(JSONMember("store", .bool(store))) }
        if let background { members.append(JSONMember("background", .bool(background))) }
        if stream { members.append(JSONMember("stream", .bool(true))) }
        return .object(members)
    }
}

/// `input` (docs/interactions.md): a string, content blocks (one user turn), or steps
/// (history, or function results).
public enum GeminiInteractionInput: Sendable, Hashable {
    /// `"input": "TEXT"`.
    case text(String)
    /// `"input": [BLOCK, ...]`.
    case content([GeminiInteractionContent])
    /// `"input": [STEP, ...]`.
    case steps([GeminiInteractionStep])

    /// The wire value.
    public var jsonValue: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .content(let blocks): .array(blocks.map(\.json))
        case .steps(let steps): .array(steps.map(\.json))
        }
    }
}

/// `generation_config` (docs/interactions.md): this API has no temperature, top-p or
/// top-k.
public struct GeminiInteractionGenerationConfig: Sendable, Hashable {
    /// `max_output_tokens`.
    public var maxOutputTokens: Int?
    /// `seed`.
    public var seed: Int?
    /// `stop_sequences`.
    public var stopSequences: [String]?
    /// `thinking_level`: `minimal`, `low`, `medium`, `high`.
    public var thinkingLevel: String?
    /// `thinking_summaries`: `auto` or `none`.
    public var thinkingSummaries: String?
    /// `tool_choice`: `auto`, `any`, `none`, `validated`, or `{"allowed_tools": {...}}`.
    public var toolChoice: JSONValue?

    /// Creates a configuration.
    public init(
        maxOutputTokens: Int? = nil, seed: Int? = nil, stopSequences: [String]? = nil,
        thinkingLevel: String? = nil, thinkingSummaries: String? = nil, toolChoice: JSONValue? = nil
    ) {
        self.maxOutputTokens = maxOutputTokens
        self.seed = seed
        self.stopSequences = stopSequences
        self.thinkingLevel = thinkingLevel
        self.thinkingSummaries = thinkingSummaries
        self.toolChoice = toolChoice
    }

    /// The wire object (set fields only).
    public var jsonValue: JSONValue {
        var members: [JSONMember] = []
        if let maxOutputTokens { members.append(JSONMember("max_output_tokens", .integer(maxOutputTokens))) }
        if let seed { members.append(JSONMember("seed", .integer(seed))) }
        if let stopSequences {
            members.append(JSONMember("stop_sequences", .array(stopSequences.map(JSONValue.string))))
        }
        if let thinkingLevel { members.append(JSONMember("thinking_level", .string(thinkingLevel))) }
        if let thinkingSummaries {
            members.append(JSONMember("thinking_summaries", .string(thinkingSummaries)))
        }
        if let toolChoice { members.append(JSONMember("tool_choice", toolChoice)) }
        return .object(members)
    }
}

extension GeminiInteractionRequest {
    /// The same turn for the Interactions API (docs/interactions.md): the system
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
    /// `mediaResolution`, `thinkingBudget`, `safetySettings`; docs/interactions.md; a config
    /// left empty goes too), and their names in that order: what a turn over this API leaves
    /// out. The API has no token-counting endpoint, so counting such a turn goes through
    /// countTokens with the rest.
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
