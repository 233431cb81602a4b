extension GeminiAPIClient {
    /// Generates text from a whole request (`safetySettings` and every other field sent as
    /// given; contents without parts dropped, as the API refuses them).
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - request: the body of `models/{model}:generateContent`.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the answer text (thought parts excluded), with usage and retry count.
    /// - Throws: as ``generateText(label:contents:model:systemInstruction:generationConfig:retryPolicy:)``.
    public func generateText(
        label: String, request: GenerateContentRequest, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<String> {
        var body = request
        body.contents = request.contents.filter { !($0.parts ?? []).isEmpty }
        let sent = body
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in sent }
        return GeminiResult(
            value: result.value.text, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: [])
    }
}
