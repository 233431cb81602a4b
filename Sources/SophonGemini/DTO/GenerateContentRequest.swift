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
    /// A cached content name (`cachedContents/...`).
    public var cachedContent: String?

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
        var request = self
        var config = request.generationConfig ?? GenerationConfig()
        config.responseMimeType = "application/json"
        config.responseSchema = schema
        request.generationConfig = config
        return request
    }
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
