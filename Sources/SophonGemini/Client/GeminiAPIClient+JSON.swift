import SophonCore

extension GeminiAPIClient {
    /// Sends a structured request and returns the answer as a JSON value chosen and coerced by
    /// `schema`: the reply text goes through `LLMJSONExtractor` (SophonCore) (fences, prose, truncation
    /// repaired), then ``GeminiSchema/selectCandidate(from:coercing:)`` picks the first value
    /// that validates (after the usual coercions, listed in ``GeminiResult/coercions``).
    ///
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - request: the request; its `generationConfig` gets `responseMimeType`
    ///     `application/json` and `responseSchema` = `schema`.
    ///   - schema: the answer schema.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    /// - Returns: the value, with usage, retry count, whether the fallback answered, and the
    ///   coercions applied (`$.year: string "2016" read as number 2016`).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` (with the repaired partial value when one was recoverable),
    ///   ``GeminiError/decodingFailed(reason:excerpt:)`` when the reply holds no JSON or no
    ///   value matches the schema (its violations as the reason), and everything
    ///   ``sendRequest(label:model:retryPolicy:buildRequest:)`` throws.
    public func generateJSON(
        label: String, request: GenerateContentRequest, schema: GeminiSchema, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<JSONValue> {
        let body = request.answering(schema: schema)
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in body }
        let answer = try GeminiAnswerReader(schema: schema).read(result.response)
        return GeminiResult(
            value: answer.value, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback, coercions: answer.coercions)
    }
}
