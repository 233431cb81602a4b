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
    /// The service tier that served the request.
    public var serviceTier: String?

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
