import Foundation

/// One request kind as the client's single call path (``GeminiAPIClient/perform(_:retryPolicy:)``)
/// runs it: where it goes, what it sends on each attempt and how its reply is read. The path
/// adds the rest the same way for every kind: the key, the model, the whole-call deadline, the
/// retries, redaction and failure logging.
struct GeminiAPICall<Reply: Sendable>: Sendable {
    /// A short name for logs and events.
    var label: String
    /// `GET` or `POST`.
    var method: String
    /// Whether the endpoint names a model: the call then resolves `model` (else the selected
    /// model), a 404 is about that model and may fall back.
    var namesModel: Bool
    /// The model asked for; `nil` uses the selected model (when ``namesModel``).
    var model: GeminiModel?
    /// The endpoint for the attempt's model ID (empty when the call names no model).
    var endpoint: @Sendable (_ modelID: String) -> GeminiEndpoint
    /// The body of one attempt (`nil` for none).
    var body: @Sendable (GeminiRequestVariant) async throws -> Data?
    /// Whether the reply is read as a stream (`accept: text/event-stream`).
    var streaming = false
    /// Reads one attempt's reply; throws ``AttemptError`` or ``GeminiError`` for a failed attempt.
    var read: @Sendable (GeminiHTTPResponse, GeminiRequestVariant) async throws -> Reply
    /// Which retryable failures the retry loop may retry (a create that is not idempotent
    /// retries only a 429); every one by default.
    var mayRetry: @Sendable (GeminiError) -> Bool = { _ in true }
    /// Checks the final reply after the retries (not retried when it throws).
    var check: @Sendable (Reply) throws -> Void = { _ in }
    /// Whether a failure is logged (`.error`, the label and the English description).
    var logsFailures = false
    /// Whether the path runs the call under the whole-call limit; `false` when the caller
    /// enforces it (a stream's deadline watch).
    var ownsDeadline = true
    /// Extra header fields of every attempt (the Files API's `x-goog-upload-*`); they override
    /// the path's defaults, `content-type` included.
    var headers: [String: String] = [:]
    /// A full URL that replaces ``endpoint`` (a resumable upload's session URL, its scheme and
    /// host already swapped for the configured base URL's).
    var absoluteURL: URL? = nil
}

extension GeminiAPICall where Reply: Decodable {
    /// A unary call: the whole body is read and a 200 decoded as `Reply`; any other status
    /// becomes the typed error of ``GeminiStatusClassifier`` (about the attempt's model when
    /// the call names one: its model ID is never empty then).
    static func unary(
        label: String, method: String, namesModel: Bool, model: GeminiModel?,
        endpoint: @escaping @Sendable (_ modelID: String) -> GeminiEndpoint,
        body: @escaping @Sendable (GeminiRequestVariant) async throws -> Data?
    ) -> GeminiAPICall {
        GeminiAPICall(
            label: label, method: method, namesModel: namesModel, model: model, endpoint: endpoint, body: body
        ) { http, variant in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data,
                    modelID: variant.modelID.isEmpty ? nil : variant.modelID)
            }
            return try GeminiAPIClient.decodeBody(Reply.self, from: data)
        }
    }
}
