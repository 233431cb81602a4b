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
    /// Where the next attempt goes instead of ``method`` and ``endpoint``, without a body, when
    /// it returns a route: a stream cut after some events resumes there (an Interaction's
    /// `GET ...?stream=true&last_event_id=`); `nil` keeps the call's own route.
    var resumeRoute: @Sendable () -> (method: String, endpoint: GeminiEndpoint)? = { nil }
    /// Whether attempts carry the client's credentials (the API key or an access token);
    /// `false` for the token endpoint's own grant.
    var sendsCredentials = true
    /// Whether attempts carry the service tier's header fields on Vertex AI
    /// (``GeminiBackend/tierHeaders(_:)``): generation requests only, never the token
    /// endpoint, caches, files or models (docs/vertex.md).
    var asksForTier = false
}

extension GeminiAPICall where Reply: Decodable {
    /// A unary call: the whole body is read and a 200 decoded as `Reply`; any other status
    /// becomes the typed error of `GeminiStatusClassifier` (about the attempt's model when
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

/// Where a request goes: a path under the API version (`/v1beta/`) and its query, joined to the
/// configured base URL (`scheme://host[:port][/prefix]`, a trailing `/v1beta` tolerated) in
/// ``url(base:)``. Every request kind names its endpoint here.
struct GeminiEndpoint: Sendable {
    /// The path after `/v1beta/`: `models/gemini-2.5-flash:generateContent`.
    var path: String
    /// Query items, in order (values percent-encoded in ``url(base:)``).
    var query: [(String, String)] = []
    /// A folder before the API version: `upload` for the Files API's upload endpoint
    /// (`/upload/v1beta/files`), `download` for a download; empty for everything else.
    var root: String = ""

    /// `models/ID:generateContent`.
    static func generateContent(model modelID: String) -> GeminiEndpoint {
        modelMethod("generateContent", model: modelID)
    }

    /// `models/ID:streamGenerateContent?alt=sse`.
    static func streamGenerateContent(model modelID: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "models/\(modelID):streamGenerateContent", query: [("alt", "sse")])
    }

    /// `models/ID:METHOD` (`countTokens`, `generateContent`).
    static func modelMethod(_ method: String, model modelID: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "models/\(modelID):\(method)")
    }

    /// `models?pageSize=N&pageToken=T` (each only when given; an empty token is left out).
    static func models(pageSize: Int?, pageToken: String?) -> GeminiEndpoint {
        var query: [(String, String)] = []
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        if let pageToken, !pageToken.isEmpty { query.append(("pageToken", pageToken)) }
        return GeminiEndpoint(path: "models", query: query)
    }

    /// `upload/v1beta/files`: starts a resumable upload (docs/library.md, "Files").
    static let uploadFiles = GeminiEndpoint(path: "files", root: "upload")

    /// `files/ID` (`name` is `files/ID`).
    static func file(_ name: String) -> GeminiEndpoint {
        GeminiEndpoint(path: name.hasPrefix("files/") ? name : "files/\(name)")
    }

    /// `files?pageSize=N&pageToken=T`.
    static func files(pageSize: Int?, pageToken: String?) -> GeminiEndpoint {
        var endpoint = models(pageSize: pageSize, pageToken: pageToken)
        endpoint.path = "files"
        return endpoint
    }

    /// `files/ID:download?alt=media`.
    static func download(_ name: String) -> GeminiEndpoint {
        GeminiEndpoint(path: file(name).path + ":download", query: [("alt", "media")])
    }

    /// The URL of this endpoint under `base`, which may carry a port, a path prefix and a
    /// tolerated trailing `/v1beta` (or `/v1beta/`), on `backend` (Vertex AI: `/v1beta1/` and
    /// the project's path, ``GeminiBackend/path(_:)``).
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`.other`) when the text is no URL;
    ///   ``GeminiError/invalidRequest(message:fieldViolations:server:)`` for what the backend lacks.
    func url(base: URL, backend: GeminiBackend = .developer) throws -> URL {
        var root = base.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        for version in [SophonGemini.apiVersion, backend.apiVersion] where root.hasSuffix("/" + version) {
            root.removeLast(version.count + 1)
        }
        if !self.root.isEmpty {
            guard !backend.isVertex else { _ = try backend.path("files"); return base }
            root += "/" + self.root
        }
        var text = "\(root)/\(backend.apiVersion)/\(try backend.path(path))"
        if !query.isEmpty {
            let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))
            text +=
                "?"
                + query.map { name, value in
                    "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
                }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw GeminiError.transport(.other, detail: "Invalid URL: \(text)")
        }
        return url
    }
}
