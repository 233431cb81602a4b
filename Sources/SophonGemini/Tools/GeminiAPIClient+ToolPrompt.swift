extension GeminiAPIClient {
    /// Automatic function calling with the user turn given as text: the same loop as
    /// ``generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``
    /// with `prompt` as one text part.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far; the prompt, the answers and the function responses
    ///     are appended to it.
    ///   - prompt: the user's text.
    ///   - handlers: the functions the model may call.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional sampling settings.
    ///   - toolConfig: optional function calling settings.
    ///   - maxToolRounds: model requests allowed (default 10).
    ///   - retryPolicy: overrides the configured policy for each model request.
    /// - Returns: the final answer, the summed usage and every call made.
    /// - Throws: as the parts form.
    public func generateWithTools(
        label: String, conversation: inout GeminiConversation, prompt: String,
        handlers: [GeminiFunctionHandler], model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, toolConfig: ToolConfig? = nil, maxToolRounds: Int = 10,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiToolRun {
        try await generateWithTools(
            label: label, conversation: &conversation, prompt: [.text(prompt)], handlers: handlers,
            model: model,
            systemInstruction: systemInstruction, generationConfig: generationConfig, toolConfig: toolConfig,
            maxToolRounds: maxToolRounds, retryPolicy: retryPolicy)
    }
}
