import SophonCore

extension GeminiAPIClient {
    /// Generates a value of `type`, with the schema derived from the type itself
    /// (``GeminiSchema/init(for:)``): the same call as
    /// ``generateStructured(_:label:prompt:parts:schema:model:systemInstruction:generationConfig:retryPolicy:allowPartial:)``
    /// without writing the schema beside the struct.
    ///
    /// ```swift
    /// struct Book: Decodable, Sendable { let title: String; let year: Int }
    /// let book = try await client.generateStructured(Book.self, label: "book", prompt: "A novel?")
    /// ```
    /// - Parameters:
    ///   - type: the type to decode the JSON answer into, and to derive the schema from.
    ///   - label: a short name for logs and events.
    ///   - prompt: the prompt text (sent after `parts`).
    ///   - parts: media or other parts sent before the prompt; none by default.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: extra settings; its MIME type and schema are replaced.
    ///   - retryPolicy: overrides the configured policy for this call.
    ///   - allowPartial: with a reply cut at MAX_TOKENS, attach the repaired partial value to
    ///     ``GeminiError/truncated(partialText:partialValue:)``.
    /// - Returns: the decoded value, with usage, retry count, coercions and repairs.
    /// - Throws: ``GeminiSchemaDerivationError`` before anything is sent when the type cannot
    ///   be described; otherwise as the call with a `schema:`.
    public func generateStructured<T: Decodable & Sendable>(
        _ type: T.Type, label: String, prompt: String, parts: [Part] = [], model: GeminiModel? = nil,
        systemInstruction: Content? = nil, generationConfig: GenerationConfig? = nil,
        retryPolicy: GeminiRetryPolicy? = nil, allowPartial: Bool = false
    ) async throws -> GeminiResult<T> {
        try await generateStructured(
            type, label: label, prompt: parts + [.text(prompt)], schema: try GeminiSchema(for: type),
            model: model,
            systemInstruction: systemInstruction, generationConfig: generationConfig,
            retryPolicy: retryPolicy,
            allowPartial: allowPartial)
    }

    /// Generates a value of `type` from a prompt given as parts (text, media, file
    /// references, in order), constrained by `schema`, or by the schema derived from `type`
    /// when `schema` is `nil`.
    /// - Parameters:
    ///   - type: the type to decode the JSON answer into.
    ///   - label: a short name for logs and events.
    ///   - prompt: the user turn's parts, in order.
    ///   - schema: the answer schema; `nil` derives it with ``GeminiSchema/init(for:)``.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: extra settings; its MIME type and schema are replaced.
    ///   - retryPolicy: overrides the configured policy for this call.
    ///   - allowPartial: attach the repaired partial value to a truncation error.
    /// - Returns: the decoded value, with usage, retry count, coercions and repairs.
    /// - Throws: ``GeminiSchemaDerivationError`` when `schema` is `nil` and the type cannot be
    ///   described; ``GeminiError`` as
    ///   ``generateStructured(_:label:prompt:parts:schema:model:systemInstruction:generationConfig:retryPolicy:allowPartial:)``.
    public func generateStructured<T: Decodable & Sendable>(
        _ type: T.Type, label: String, prompt: [Part], schema: GeminiSchema? = nil, model: GeminiModel? = nil,
        systemInstruction: Content? = nil, generationConfig: GenerationConfig? = nil,
        retryPolicy: GeminiRetryPolicy? = nil, allowPartial: Bool = false
    ) async throws -> GeminiResult<T> {
        let request = GenerateContentRequest(
            contents: [Content(role: "user", parts: prompt)], systemInstruction: systemInstruction,
            generationConfig: generationConfig ?? GenerationConfig()
        ).answering(schema: try schema ?? GeminiSchema(for: type))
        return try await send(
            type, label: label, model: model, retryPolicy: retryPolicy, allowPartial: allowPartial
        ) {
            _ in request
        }
    }

    /// Generates text from one user turn given as text.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - prompt: the user's text.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional sampling settings.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the answer text (thought parts excluded), with usage and retry count.
    /// - Throws: as ``generateText(label:contents:model:systemInstruction:generationConfig:retryPolicy:)``.
    public func generateText(
        label: String, prompt: String, model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<String> {
        try await generateText(
            label: label, prompt: [.text(prompt)], model: model, systemInstruction: systemInstruction,
            generationConfig: generationConfig, retryPolicy: retryPolicy)
    }

    /// Generates text from one user turn given as parts (text, media, file references).
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - prompt: the user turn's parts, in order.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional sampling settings.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the answer text (thought parts excluded), with usage and retry count.
    /// - Throws: as ``generateText(label:contents:model:systemInstruction:generationConfig:retryPolicy:)``.
    public func generateText(
        label: String, prompt: [Part], model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<String> {
        try await generateText(
            label: label, contents: [Content(role: "user", parts: prompt)], model: model,
            systemInstruction: systemInstruction, generationConfig: generationConfig, retryPolicy: retryPolicy
        )
    }

    /// Streams the answer to one user turn given as text: the same stream as
    /// ``streamGenerateContent(label:model:retryPolicy:request:)``, each element one chunk as
    /// it arrives.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - prompt: the user's text.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional sampling settings.
    ///   - retryPolicy: overrides the configured policy (retried only before the first chunk).
    /// - Returns: the chunks; the stream throws as the request form's does.
    public func streamGenerateContent(
        label: String, prompt: String, model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, retryPolicy: GeminiRetryPolicy? = nil
    ) -> AsyncThrowingStream<GenerateContentResponse, any Error> {
        streamGenerateContent(
            label: label, model: model, retryPolicy: retryPolicy,
            request: GenerateContentRequest(
                contents: [.user(prompt)], systemInstruction: systemInstruction,
                generationConfig: generationConfig))
    }
}
