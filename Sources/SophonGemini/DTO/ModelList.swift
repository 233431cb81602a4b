/// One model of `GET /v1beta/models` (the API's `Model`). Every field is optional: real
/// pages omit `baseModelId` everywhere and sampling fields on embedding models.
public struct GeminiModelInfo: Codable, Sendable, Hashable {
    /// The resource name, e.g. `models/gemini-2.5-flash`.
    public var name: String?
    /// The base model ID.
    public var baseModelId: String?
    /// The version, free-form (`001`, `2.5`, `3-flash-preview-12-2025`).
    public var version: String?
    /// A display name.
    public var displayName: String?
    /// A description.
    public var description: String?
    /// The input token limit.
    public var inputTokenLimit: Int?
    /// The output token limit.
    public var outputTokenLimit: Int?
    /// Methods such as `generateContent`, `countTokens` (never lists streaming).
    public var supportedGenerationMethods: [String]?
    /// The default temperature.
    public var temperature: Double?
    /// The highest accepted temperature.
    public var maxTemperature: Double?
    /// The default top-p.
    public var topP: Double?
    /// The default top-k.
    public var topK: Int?
    /// Whether the model thinks.
    public var thinking: Bool?

    /// The model ID without the `models/` prefix (`gemini-2.5-flash`), or `""`.
    public var id: String {
        guard let name else { return "" }
        return name.hasPrefix("models/") ? String(name.dropFirst("models/".count)) : name
    }
}

/// One page of `GET /v1beta/models`: `{"models": [...], "nextPageToken": "..."}`.
public struct ListModelsResponse: Codable, Sendable, Hashable {
    /// The models of this page.
    public var models: [GeminiModelInfo]?
    /// The token of the next page; absent or empty on the last page.
    public var nextPageToken: String?
}
