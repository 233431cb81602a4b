import SophonCore

/// What `POST /v1beta/interactions` creates (gemini-wire-format-3.md §1.3): a model or an
/// agent, the input, and the fields the API scopes to one interaction. Encoded snake_case by
/// ``jsonValue(modelID:stream:)``; absent fields are left out.
///
/// `tools`, `system_instruction` and `generation_config` are interaction-scoped: a request
/// continuing with ``previousInteractionID`` must carry them again (§1.10).
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
    /// as JSON of a JSON Schema (§1.7).
    public static func jsonResponseFormat(schema: JSONValue) -> JSONValue {
        .object([
            JSONMember("type", .string("text")), JSONMember("mime_type", .string("application/json")),
            JSONMember("schema", schema),
        ])
    }

    /// `{"type": "function", "name", "description"?, "parameters"?}`: a function as this API
    /// declares it, flat, its parameters as JSON Schema (§1.8).
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

/// `input` (gemini-wire-format-3.md §1.4): a string, content blocks (one user turn), or steps
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

/// `generation_config` (gemini-wire-format-3.md §1.6): this API has no temperature, top-p or
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
