import Foundation
import SophonCore

/// The body of `models/{model}:generateContent` and `:streamGenerateContent`.
///
/// Encodes with camelCase keys in declaration order, `nil` fields omitted; encode it with
/// `OrderedJSONEncoder` for byte-stable output. `model` is only for the
/// `countTokens` form (`{"generateContentRequest": {"model": ..., ...}}`).
public struct GenerateContentRequest: Codable, Sendable, Hashable {
    /// `models/{id}`; set only inside a countTokens request.
    public var model: String?
    /// The conversation, oldest first.
    public var contents: [Content]
    /// The system instruction (its role is ignored).
    public var systemInstruction: Content?
    /// Tool declarations, passed through as a JSON array.
    @JSONField public var tools: JSONValue?
    /// Tool configuration, passed through as JSON.
    @JSONField public var toolConfig: JSONValue?
    /// Safety thresholds per category.
    public var safetySettings: [SafetySetting]?
    /// Sampling and output settings.
    public var generationConfig: GenerationConfig?
    /// A cached content name (`cachedContents/...`): see ``usingCache(_:)``.
    public var cachedContent: String?
    /// The service tier asked for (`standard`, `flex`, `priority`, lowercase; at the request's
    /// root, docs/commands.md, "tier"); `nil` leaves the server's default (standard).
    public var serviceTier: String?

    /// Creates a request.
    public init(
        contents: [Content], systemInstruction: Content? = nil, tools: JSONValue? = nil,
        toolConfig: JSONValue? = nil, safetySettings: [SafetySetting]? = nil,
        generationConfig: GenerationConfig? = nil, cachedContent: String? = nil, model: String? = nil
    ) {
        self.model = model
        self.contents = contents
        self.systemInstruction = systemInstruction
        self.tools = tools
        self.toolConfig = toolConfig
        self.safetySettings = safetySettings
        self.generationConfig = generationConfig
        self.cachedContent = cachedContent
    }
}

extension GenerateContentRequest {
    /// This request asking for an answer in `schema`'s shape: `generationConfig.responseMimeType`
    /// `application/json` and `responseSchema` = `schema` (the rest of the configuration kept);
    /// unchanged when `schema` is `nil`.
    public func answering(schema: GeminiSchema?) -> GenerateContentRequest {
        guard let schema else { return self }
        var request = answeringJSON()
        request.generationConfig?.responseSchema = schema
        return request
    }

    /// This request asking for JSON of any shape (JSON mode, a prompt file's
    /// `output.format: json`): `generationConfig.responseMimeType` `application/json`, the rest
    /// of the configuration kept.
    public func answeringJSON() -> GenerateContentRequest {
        var request = self
        var config = request.generationConfig ?? GenerationConfig()
        config.responseMimeType = "application/json"
        request.generationConfig = config
        return request
    }

    /// Whether this request asks for a JSON answer: `generationConfig.responseMimeType` is
    /// `application/json`, with or without a `responseSchema`.
    public var asksForJSON: Bool { generationConfig?.responseMimeType == "application/json" }
}

/// `generationConfig`: sampling and output settings. Every field is optional; ranges are the
/// API's (temperature 0...2, at most 5 stop sequences, logprobs 0...20).
public struct GenerationConfig: Codable, Sendable, Hashable {
    /// Number of candidates to generate.
    public var candidateCount: Int?
    /// Up to 5 sequences that stop generation.
    public var stopSequences: [String]?
    /// The output token limit.
    public var maxOutputTokens: Int?
    /// Sampling temperature, 0...2.
    public var temperature: Double?
    /// Nucleus sampling probability.
    public var topP: Double?
    /// Top-k sampling.
    public var topK: Int?
    /// Sampling seed.
    public var seed: Int?
    /// `text/plain`, `application/json` or `text/x.enum`.
    public var responseMimeType: String?
    /// The OpenAPI-subset schema of the answer (needs `application/json`).
    public var responseSchema: GeminiSchema?
    /// A JSON Schema for the answer; exclusive with `responseSchema`.
    @JSONField public var responseJsonSchema: JSONValue?
    /// Presence penalty.
    public var presencePenalty: Double?
    /// Frequency penalty.
    public var frequencyPenalty: Double?
    /// Whether to return log probabilities.
    public var responseLogprobs: Bool?
    /// How many top log probabilities to return, 0...20.
    public var logprobs: Int?
    /// Requested modalities, e.g. `["TEXT"]`.
    public var responseModalities: [String]?
    /// Media resolution, e.g. `MEDIA_RESOLUTION_LOW`.
    public var mediaResolution: String?
    /// Thinking settings.
    public var thinkingConfig: ThinkingConfig?

    /// Creates a configuration; every field defaults to absent.
    public init(
        candidateCount: Int? = nil, stopSequences: [String]? = nil, maxOutputTokens: Int? = nil,
        temperature: Double? = nil, topP: Double? = nil, topK: Int? = nil, seed: Int? = nil,
        responseMimeType: String? = nil, responseSchema: GeminiSchema? = nil,
        responseJsonSchema: JSONValue? = nil, presencePenalty: Double? = nil,
        frequencyPenalty: Double? = nil, responseLogprobs: Bool? = nil, logprobs: Int? = nil,
        responseModalities: [String]? = nil, mediaResolution: String? = nil,
        thinkingConfig: ThinkingConfig? = nil
    ) {
        self.candidateCount = candidateCount
        self.stopSequences = stopSequences
        self.maxOutputTokens = maxOutputTokens
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.seed = seed
        self.responseMimeType = responseMimeType
        self.responseSchema = responseSchema
        self.responseJsonSchema = responseJsonSchema
        self.presencePenalty = presencePenalty
        self.frequencyPenalty = frequencyPenalty
        self.responseLogprobs = responseLogprobs
        self.logprobs = logprobs
        self.responseModalities = responseModalities
        self.mediaResolution = mediaResolution
        self.thinkingConfig = thinkingConfig
    }
}

/// `thinkingConfig`. Set `thinkingBudget` (0 off, -1 automatic) or `thinkingLevel`
/// (MINIMAL, LOW, MEDIUM, HIGH), not both: the API rejects both with a 400.
public struct ThinkingConfig: Codable, Sendable, Hashable {
    /// Whether thought summaries are returned as `thought` parts.
    public var includeThoughts: Bool?
    /// Thinking token budget.
    public var thinkingBudget: Int?
    /// Thinking level.
    public var thinkingLevel: String?

    /// Creates a thinking configuration.
    public init(includeThoughts: Bool? = nil, thinkingBudget: Int? = nil, thinkingLevel: String? = nil) {
        self.includeThoughts = includeThoughts
        self.thinkingBudget = thinkingBudget
        self.thinkingLevel = thinkingLevel
    }
}

/// One safety setting: `{"category": "HARM_CATEGORY_...", "threshold": "BLOCK_..."}`.
public struct SafetySetting: Codable, Sendable, Hashable {
    /// The harm category, e.g. `HARM_CATEGORY_HARASSMENT`.
    public var category: String
    /// The threshold, e.g. `BLOCK_ONLY_HIGH` or `OFF`.
    public var threshold: String

    /// Creates a setting.
    public init(category: String, threshold: String) {
        self.category = category
        self.threshold = threshold
    }
}

/// One entry of a request's `tools` array (docs/library.md, "Tools"): function declarations
/// and the built-in tools that run on Google's side (`codeExecution`, `googleSearch`,
/// `urlContext`, each sent as an empty object `{}`).
public struct Tool: Codable, Sendable, Hashable {
    /// Functions the model may call; the client runs them and sends the results back.
    public var functionDeclarations: [FunctionDeclaration]?
    /// `{}` enables code execution (Python run by Google; the parts come back in the reply).
    @JSONField public var codeExecution: JSONValue?
    /// `{}` enables Google Search grounding (sources in the candidate's `groundingMetadata`).
    @JSONField public var googleSearch: JSONValue?
    /// `{}` enables URL context (URLs written in the prompt are fetched).
    @JSONField public var urlContext: JSONValue?

    /// Creates a tool entry; give declarations, built-ins, or both.
    public init(
        functionDeclarations: [FunctionDeclaration]? = nil, codeExecution: JSONValue? = nil,
        googleSearch: JSONValue? = nil, urlContext: JSONValue? = nil
    ) {
        self.functionDeclarations = functionDeclarations
        self.codeExecution = codeExecution
        self.googleSearch = googleSearch
        self.urlContext = urlContext
    }

    /// The tool as the JSON sent on the wire, keys in declaration order, absent fields omitted.
    public var jsonValue: JSONValue {
        var members: [JSONMember] = []
        if let functionDeclarations {
            members.append(JSONMember("functionDeclarations", .array(functionDeclarations.map(\.jsonValue))))
        }
        if let codeExecution { members.append(JSONMember("codeExecution", codeExecution)) }
        if let googleSearch { members.append(JSONMember("googleSearch", googleSearch)) }
        if let urlContext { members.append(JSONMember("urlContext", urlContext)) }
        return .object(members)
    }
}

/// A function the model may call: `{"name", "description", "parameters" | "parametersJsonSchema"}`.
///
/// `name`: letters, digits, `_ : . -`, at most 64 characters (the API's rule). `parameters` is
/// the OpenAPI-subset schema of the arguments object; `parametersJsonSchema` a JSON Schema for
/// it; send one of them, or neither for a function without arguments.
public struct FunctionDeclaration: Codable, Sendable, Hashable {
    /// The function name.
    public var name: String
    /// What the function does; the model reads it to choose.
    public var description: String?
    /// The arguments object as a Gemini Schema.
    public var parameters: GeminiSchema?
    /// The arguments object as JSON Schema (exclusive with `parameters`).
    @JSONField public var parametersJsonSchema: JSONValue?

    /// Creates a declaration.
    public init(
        name: String, description: String? = nil, parameters: GeminiSchema? = nil,
        parametersJsonSchema: JSONValue? = nil
    ) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.parametersJsonSchema = parametersJsonSchema
    }

    /// Whether `name` is one the API accepts: 1 to 64 of letters, digits, `_`, `:`, `.`, `-`,
    /// starting with a letter or `_`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64 else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
        }
        guard isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            isLetter($0) || ("0"..."9").contains($0) || $0 == ":" || $0 == "." || $0 == "-"
        }
    }

    /// The declaration as sent on the wire, keys in order `name`, `description`, `parameters`,
    /// `parametersJsonSchema`; absent fields omitted.
    public var jsonValue: JSONValue {
        var members = [JSONMember("name", .string(name))]
        if let description { members.append(JSONMember("description", .string(description))) }
        if let parameters { members.append(JSONMember("parameters", parameters.jsonValue)) }
        if let parametersJsonSchema {
            members.append(JSONMember("parametersJsonSchema", parametersJsonSchema))
        }
        return .object(members)
    }

    /// The problems of `arguments` against the declared parameters, as readable lines (empty:
    /// valid). A JSON Schema declaration is not checked here.
    public func violations(of arguments: JSONValue) -> [String] {
        guard let parameters else { return [] }
        return parameters.validate(arguments).map { "\($0)" }
    }
}

/// `toolConfig`: how the model may use the declared functions.
public struct ToolConfig: Codable, Sendable, Hashable {
    /// The function-calling mode and the allowed names.
    public var functionCallingConfig: FunctionCallingConfig?

    /// Creates a tool configuration.
    public init(functionCallingConfig: FunctionCallingConfig? = nil) {
        self.functionCallingConfig = functionCallingConfig
    }

    /// The configuration as sent on the wire.
    public var jsonValue: JSONValue {
        guard let config = functionCallingConfig else { return .object([]) }
        var members = [JSONMember("mode", .string(config.mode.rawValue))]
        if let names = config.allowedFunctionNames {
            members.append(JSONMember("allowedFunctionNames", .array(names.map { .string($0) })))
        }
        return .object([JSONMember("functionCallingConfig", .object(members))])
    }
}

/// `functionCallingConfig`: `{"mode", "allowedFunctionNames"?}`.
public struct FunctionCallingConfig: Codable, Sendable, Hashable {
    /// `AUTO` (text or a call; the default), `ANY` (always a call), `NONE` (no calls),
    /// `VALIDATED` (text or a call constrained to the schema).
    public enum Mode: String, Codable, Sendable, Hashable, CaseIterable {
        /// The model chooses text or a call.
        case auto = "AUTO"
        /// The model always calls a function.
        case any = "ANY"
        /// The model calls no function.
        case none = "NONE"
        /// Text or a call whose arguments follow the schema.
        case validated = "VALIDATED"
    }

    /// The mode.
    public var mode: Mode
    /// The functions the model may call; only with `ANY` or `VALIDATED`.
    public var allowedFunctionNames: [String]?

    /// Creates a configuration.
    public init(mode: Mode, allowedFunctionNames: [String]? = nil) {
        self.mode = mode
        self.allowedFunctionNames = allowedFunctionNames
    }
}
