import SophonCore

extension GeminiAPIClient {
    /// The structured answer a reply holds, decoded exactly as
    /// ``generateJSON(label:request:schema:model:retryPolicy:)`` decodes its reply: for callers
    /// that sent the request themselves (the shell's tool loop sends `responseSchema` with
    /// `tools`, docs/commands.md "Tools").
    ///
    /// - Parameters:
    ///   - response: a reply to a request whose `generationConfig` had `responseSchema` = `schema`.
    ///   - schema: the answer schema.
    /// - Returns: the value chosen and coerced by `schema`, and the coercions applied
    ///   (`$.year: string "2016" read as number 2016`).
    /// - Throws: ``GeminiError/truncated(partialText:partialValue:)`` when the reply stopped at
    ///   `MAX_TOKENS` with its JSON cut; ``GeminiError/decodingFailed(reason:excerpt:)`` when the
    ///   reply holds no JSON (a reply of only function calls has no text) or no value matches
    ///   the schema (its violations as the reason).
    public static func structuredValue(of response: GenerateContentResponse, schema: GeminiSchema) throws
        -> (value: JSONValue, coercions: [String])
    {
        let answer = try GeminiAnswerReader(schema: schema).read(response)
        return (answer.value, answer.coercions)
    }
}
