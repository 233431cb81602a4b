/// One request of a Batch job with inline input: the key its answer comes back under, and the
/// `generateContent` request (docs/running-many-prompts.md).
public struct GeminiBatchRequest: Sendable, Hashable {
    /// The key (`metadata.key`): answers come back in any order, matched by it.
    public var key: String
    /// The request, as `generateContent` takes it.
    public var request: GenerateContentRequest

    /// A request under `key`.
    public init(key: String, request: GenerateContentRequest) {
        self.key = key
        self.request = request
    }

    /// A one-turn text request under `key`.
    /// - Parameters:
    ///   - key: the key its answer comes back under.
    ///   - prompt: the user's text.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional settings.
    public init(
        key: String, prompt: String, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil
    ) {
        self.init(
            key: key,
            request: GenerateContentRequest(
                contents: [.user(prompt)], systemInstruction: systemInstruction,
                generationConfig: generationConfig))
    }
}
