import SophonCore

extension GeminiAPIClient {
    /// Sends a structured request and returns the answer as a JSON value chosen and coerced by
    /// `schema`: the reply text goes through ``LLMJSONExtractor`` (fences, prose, truncation
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
    ///   value matches the schema (the first violation as the reason), and everything
    ///   ``sendRequest(label:model:retryPolicy:buildRequest:)`` throws.
    public func generateJSON(
        label: String, request: GenerateContentRequest, schema: GeminiSchema, model: GeminiModel? = nil,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiResult<JSONValue> {
        var structured = request
        var config = structured.generationConfig ?? GenerationConfig()
        config.responseMimeType = "application/json"
        config.responseSchema = schema
        structured.generationConfig = config
        let body = structured
        let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in body }
        let text = result.response.text
        let truncated = result.response.finishReason == .maxTokens
        let candidates = ((try? LLMJSONExtractor().extract(from: text)) ?? []).map(\.value)
        guard let selection = schema.selectCandidate(from: candidates) else {
            if truncated { throw GeminiError.truncated(partialText: text, partialValue: nil) }
            throw GeminiError.decodingFailed(reason: "The reply holds no JSON.", excerpt: Self.excerpt(text))
        }
        if truncated {
            throw GeminiError.truncated(partialText: text, partialValue: selection.value)
        }
        guard selection.isValid else {
            let first = selection.violations.first.map(\.description) ?? "does not match the schema"
            throw GeminiError.decodingFailed(reason: first, excerpt: Self.excerpt(text))
        }
        return GeminiResult(
            value: selection.value, response: result.response, modelID: result.modelID,
            retryCount: result.retryCount, usedFallback: result.usedFallback,
            coercions: selection.coercions.map(\.description))
    }

    /// The first 120 characters of `text` on one line, for error messages.
    static func excerpt(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return collapsed.count > 120 ? String(collapsed.prefix(120)) + "…" : collapsed
    }
}
