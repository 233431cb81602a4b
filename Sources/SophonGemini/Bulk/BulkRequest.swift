import SophonCore

/// One request of a bulk run (docs/running-many-prompts.md): a caller-chosen key, the request
/// body, and the schema that makes it structured.
public struct BulkRequest: Sendable, Hashable {
    /// The key the result carries back; unique within a run.
    public var key: String
    /// The `generateContent` body.
    public var request: GenerateContentRequest
    /// When set, the answer is a JSON value chosen by this schema (as
    /// ``GeminiAPIClient/generateJSON(label:request:schema:model:retryPolicy:)``); else text.
    public var schema: GeminiSchema?
    /// The model; `nil` uses the client's selected model.
    public var model: GeminiModel?

    /// Creates a request.
    public init(
        key: String, request: GenerateContentRequest, schema: GeminiSchema? = nil, model: GeminiModel? = nil
    ) {
        self.key = key
        self.request = request
        self.schema = schema
        self.model = model
    }
}
