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
