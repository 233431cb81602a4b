import SophonCore

/// A reply of `generateContent`, or one chunk of `streamGenerateContent` (then parts hold
/// only the delta and usage is cumulative). Every field is optional: real replies omit many.
public struct GenerateContentResponse: Codable, Sendable, Hashable {
    /// The candidates; may be empty or absent (for example when the prompt was blocked).
    public var candidates: [Candidate]?
    /// Why the prompt was blocked, when it was.
    public var promptFeedback: PromptFeedback?
    /// Token counts.
    public var usageMetadata: UsageMetadata?
    /// The model version that answered, e.g. `gemini-2.5-flash`.
    public var modelVersion: String?
    /// The response ID.
    public var responseId: String?
    /// Model status (deprecation notices), passed through as JSON.
    @JSONField public var modelStatus: JSONValue?

    /// Creates a response.
    public init(
        candidates: [Candidate]? = nil, promptFeedback: PromptFeedback? = nil,
        usageMetadata: UsageMetadata? = nil, modelVersion: String? = nil, responseId: String? = nil
    ) {
        self.candidates = candidates
        self.promptFeedback = promptFeedback
        self.usageMetadata = usageMetadata
        self.modelVersion = modelVersion
        self.responseId = responseId
    }

    /// The first candidate's answer text (thought parts excluded), or `""`.
    public var text: String { candidates?.first?.content?.answerText ?? "" }

    /// The first candidate's thought text, or `""`.
    public var thoughtText: String { candidates?.first?.content?.thoughtText ?? "" }

    /// The first candidate's finish reason.
    public var finishReason: FinishReason? { candidates?.first?.finishReason }
}

/// One candidate answer.
public struct Candidate: Codable, Sendable, Hashable {
    /// The content; `{}` or a role without parts happen.
    public var content: Content?
    /// Why generation stopped; only on the last stream chunk.
    public var finishReason: FinishReason?
    /// A human-readable note about the finish reason.
    public var finishMessage: String?
    /// Safety ratings.
    public var safetyRatings: [SafetyRating]?
    /// Citations.
    public var citationMetadata: CitationMetadata?
    /// Tokens in this candidate.
    public var tokenCount: Int?
    /// Average log probability.
    public var avgLogprobs: Double?
    /// The candidate index; often absent (then 0).
    public var index: Int?
    /// Grounding metadata, passed through as JSON.
    @JSONField public var groundingMetadata: JSONValue?
    /// Log probabilities, passed through as JSON.
    @JSONField public var logprobsResult: JSONValue?
    /// URL-context metadata, passed through as JSON.
    @JSONField public var urlContextMetadata: JSONValue?

    /// Creates a candidate.
    public init(
        content: Content? = nil, finishReason: FinishReason? = nil, finishMessage: String? = nil,
        index: Int? = nil
    ) {
        self.content = content
        self.finishReason = finishReason
        self.finishMessage = finishMessage
        self.index = index
    }
}

/// Feedback about the prompt: `{blockReason, blockReasonMessage, safetyRatings}`.
public struct PromptFeedback: Codable, Sendable, Hashable {
    /// Why the prompt was blocked.
    public var blockReason: BlockReason?
    /// A human-readable explanation.
    public var blockReasonMessage: String?
    /// Safety ratings of the prompt.
    public var safetyRatings: [SafetyRating]?

    /// Creates feedback.
    public init(blockReason: BlockReason? = nil, blockReasonMessage: String? = nil) {
        self.blockReason = blockReason
        self.blockReasonMessage = blockReasonMessage
    }
}

/// A safety rating: `{category, probability, blocked}`.
public struct SafetyRating: Codable, Sendable, Hashable {
    /// The harm category.
    public var category: String?
    /// The probability of harm.
    public var probability: HarmProbability?
    /// Whether this rating blocked the content.
    public var blocked: Bool?
}

/// Citations of a candidate.
public struct CitationMetadata: Codable, Sendable, Hashable {
    /// The cited sources.
    public var citationSources: [CitationSource]?
}

/// One cited source: a span of the answer (UTF-8 byte offsets) and where it came from.
public struct CitationSource: Codable, Sendable, Hashable {
    /// Start of the cited span.
    public var startIndex: Int?
    /// End of the cited span.
    public var endIndex: Int?
    /// The source URI.
    public var uri: String?
    /// The source license.
    public var license: String?
}

/// Token counts of a reply (`usageMetadata`). The API omits zero counts, so every field is
/// optional; in a stream the counts are running totals and the last non-nil usage wins.
public struct UsageMetadata: Codable, Sendable, Hashable {
    /// Tokens in the prompt (cached content included).
    public var promptTokenCount: Int?
    /// Tokens served from the cache.
    public var cachedContentTokenCount: Int?
    /// Tokens in the candidates.
    public var candidatesTokenCount: Int?
    /// Tokens in tool-use prompts.
    public var toolUsePromptTokenCount: Int?
    /// Tokens spent thinking.
    public var thoughtsTokenCount: Int?
    /// prompt + candidates + thoughts (+ tool use).
    public var totalTokenCount: Int?
    /// Prompt tokens per modality.
    public var promptTokensDetails: [ModalityTokenCount]?
    /// Cached tokens per modality.
    public var cacheTokensDetails: [ModalityTokenCount]?
    /// Candidate tokens per modality.
    public var candidatesTokensDetails: [ModalityTokenCount]?
    /// Tool-use prompt tokens per modality.
    public var toolUsePromptTokensDetails: [ModalityTokenCount]?
    /// The service tier that served the request (Developer API: `standard`, `flex`, `priority`).
    public var serviceTier: String?
    /// Vertex AI's report of how the request was served instead of ``serviceTier``:
    /// `ON_DEMAND`, `ON_DEMAND_PRIORITY`, `ON_DEMAND_FLEX`, `PROVISIONED_THROUGHPUT`.
    public var trafficType: String?

    /// The tier that served the request on either backend, lowercased: ``serviceTier``, else
    /// Vertex AI's ``trafficType`` as a tier (`ON_DEMAND` `standard`, `ON_DEMAND_FLEX` `flex`,
    /// `ON_DEMAND_PRIORITY` `priority`, `PROVISIONED_THROUGHPUT` `provisioned-throughput`;
    /// another traffic type lowercased); `nil` when the reply reports neither.
    public var servedTier: String? {
        if let serviceTier, !serviceTier.isEmpty { return serviceTier.lowercased() }
        guard let trafficType, !trafficType.isEmpty else { return nil }
        switch trafficType {
        case "ON_DEMAND": return "standard"
        case "ON_DEMAND_FLEX": return "flex"
        case "ON_DEMAND_PRIORITY": return "priority"
        default: return trafficType.lowercased().replacingOccurrences(of: "_", with: "-")
        }
    }

    /// Creates usage counts.
    public init(
        promptTokenCount: Int? = nil, candidatesTokenCount: Int? = nil,
        thoughtsTokenCount: Int? = nil, totalTokenCount: Int? = nil
    ) {
        self.promptTokenCount = promptTokenCount
        self.candidatesTokenCount = candidatesTokenCount
        self.thoughtsTokenCount = thoughtsTokenCount
        self.totalTokenCount = totalTokenCount
    }
}

/// Tokens of one modality: `{"modality": "TEXT", "tokenCount": 5}`.
public struct ModalityTokenCount: Codable, Sendable, Hashable {
    /// TEXT, IMAGE, VIDEO, AUDIO or DOCUMENT (others kept as sent).
    public var modality: String?
    /// The count; absent means zero.
    public var tokenCount: Int?
}

/// The body of `models/{model}:countTokens`: either `contents` or a whole
/// `generateContentRequest` (with its `model`), never both.
public struct CountTokensRequest: Codable, Sendable, Hashable {
    /// The contents to count.
    public var contents: [Content]?
    /// A whole request to count (system instruction, tools and config included).
    public var generateContentRequest: GenerateContentRequest?

    /// Counts `contents`.
    public init(contents: [Content]) {
        self.contents = contents
        generateContentRequest = nil
    }

    /// Counts a whole request; its `model` must be set (`models/{id}`).
    public init(generateContentRequest: GenerateContentRequest) {
        contents = nil
        self.generateContentRequest = generateContentRequest
    }
}

/// The reply of `countTokens`, e.g. `{"totalTokens": 5, "promptTokensDetails": [...]}`.
public struct CountTokensResponse: Codable, Sendable, Hashable {
    /// Total tokens of the input; absent means zero.
    public var totalTokens: Int?
    /// Tokens of the cached part.
    public var cachedContentTokenCount: Int?
    /// Prompt tokens per modality.
    public var promptTokensDetails: [ModalityTokenCount]?
    /// Cached tokens per modality.
    public var cacheTokensDetails: [ModalityTokenCount]?
}
