import Foundation
import SophonCore

extension GeminiAPIClient {
    /// The API key from the provider, trimmed.
    /// - Throws: ``GeminiError/missingAPIKey`` when there is none.
    func requireAPIKey() throws -> String {
        let key = Self.trimmed(configuration.apiKeyProvider() ?? "")
        guard !key.isEmpty else { throw GeminiError.missingAPIKey }
        return key
    }

    /// `text` without leading and trailing whitespace and newlines (Unicode White_Space, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`), without bridging to `NSString`:
    /// that took 2.7% of a call's CPU in the benchmark (perf, docs/benchmarks.md).
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

    /// `models/x` -> `x`.
    static func stripModelsPrefix(_ id: String) -> String {
        id.hasPrefix("models/") ? String(id.dropFirst("models/".count)) : id
    }

    /// Checks a model ID (a leading `models/` removed) with ``GeminiModel/isWellFormedID(_:)``.
    /// - Throws: ``GeminiError/invalidModelID(_:)``.
    static func validatedModelID(_ id: String) throws -> String {
        let stripped = stripModelsPrefix(id)
        guard GeminiModel.isWellFormedID(stripped) else { throw GeminiError.invalidModelID(id) }
        return stripped
    }

    /// The URL of `path` (after `/v1beta/`) under the configured base URL, which may carry a
    /// port, a path prefix and a tolerated trailing `/v1beta`.
    func endpoint(_ path: String, query: [(String, String)] = []) throws -> URL {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/" + SophonGemini.apiVersion) {
            base.removeLast(SophonGemini.apiVersion.count + 1)
        }
        var text = "\(base)/\(SophonGemini.apiVersion)/\(path)"
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

    /// Sends one request and reports it to the observer; transport failures become
    /// ``AttemptError``s.
    func exchange(
        label: String, method: String, path: String, query: [(String, String)] = [], body: Data?,
        key: String, attempt: Int, streaming: Bool = false, deadline: GeminiCallDeadline? = nil
    ) async throws -> GeminiHTTPResponse {
        let url = try endpoint(path, query: query)
        var headers = ["x-goog-api-key": key, "accept": streaming ? "text/event-stream" : "application/json"]
        if body != nil { headers["content-type"] = "application/json" }
        let request = GeminiHTTPRequest(
            method: method, url: url, headers: headers, body: body, timeout: configuration.requestTimeout,
            streaming: streaming, deadline: transport.honoursDeadline ? deadline : nil)
        configuration.observer?(.requestSent(label: label, method: method, path: url.path, attempt: attempt))
        log(.debug, "\(label): \(method) \(url.path) (attempt \(attempt))")
        let start = ContinuousClock.now
        let response: GeminiHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as GeminiError {
            throw AttemptError(error)
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = Int(
            elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        configuration.observer?(
            .responseReceived(
                label: label, status: response.status, statusText: HTTPStatusText.text(for: response.status),
                milliseconds: milliseconds))
        return response
    }

    /// One unary attempt: sends the request, reads the whole body, and decodes a 200 as
    /// `Response`; any other status becomes the typed error of ``classify(status:headers:body:modelID:rpc:)``
    /// (`modelID` names the model a 404 is about; `nil` when the path has no model).
    func unaryCall<Response: Decodable>(
        _ type: Response.Type, label: String, method: String, path: String, query: [(String, String)] = [],
        body: Data?, key: String, attempt: Int, modelID: String?, deadline: GeminiCallDeadline? = nil
    ) async throws -> Response {
        let http = try await exchange(
            label: label, method: method, path: path, query: query, body: body, key: key, attempt: attempt,
            deadline: deadline)
        let data = try await self.body(of: http)
        guard http.status == 200 else {
            throw Self.classify(status: http.status, headers: http.headers, body: data, modelID: modelID)
        }
        return try decodeBody(Response.self, from: data)
    }

    /// Reads the whole body of a unary response.
    func body(of response: GeminiHTTPResponse) async throws -> Data {
        do {
            return try await response.collectBody()
        } catch let error as GeminiError {
            throw AttemptError(error)
        }
    }

    /// Decodes a 200 body as `T`; a body that does not decode is a truncated or malformed
    /// response (retryable).
    func decodeBody<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if T.self == GenerateContentResponse.self, let response = FastResponseDecoding.decode(data) {
            return response as! T  // T is GenerateContentResponse here: the cast cannot fail.
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            if let status = GoogleRPCErrorBody.parse(data) {
                throw Self.classify(
                    status: status.code ?? 500, headers: [:], body: data, modelID: nil, rpc: status)
            }
            throw AttemptError(
                .transport(.badResponse, detail: "Undecodable reply: \(Self.excerpt(data))"))
        }
    }

    /// Maps a non-200 response to a typed error (PRODUCT.md §3 classification).
    static func classify(
        status: Int, headers: [String: String], body: Data, modelID: String?, rpc: GoogleRPCStatus? = nil
    ) -> AttemptError {
        let rpc = rpc ?? GoogleRPCErrorBody.parse(body)
        let message = rpc?.message ?? excerpt(body)
        let serverWait = ServerWait.wait(headers: headers, status: rpc)
        let reason = rpc?.errorReason ?? ""
        switch status {
        case 400 where reason == "API_KEY_INVALID", 401:
            let debug = rpc?.details?.compactMap(\.detail).joined(separator: " ") ?? ""
            return AttemptError(.invalidAPIKey(message: debug.isEmpty ? message : "\(message) (\(debug))"))
        case 403 where reason.hasPrefix("API_KEY") || rpc?.status == "PERMISSION_DENIED" && reason.isEmpty:
            return AttemptError(.invalidAPIKey(message: message))
        case 400:
            return AttemptError(
                .invalidRequest(message: message, fieldViolations: rpc?.fieldViolations ?? []))
        case 404 where modelID != nil:
            return AttemptError(.modelRetired(modelID: modelID ?? ""))
        case 429:
            if let daily = rpc?.quotaViolations.first(where: \.isPerDay) {
                return AttemptError(.quotaExhausted(quotaId: daily.quotaId, message: message))
            }
            return AttemptError(.rateLimited(retryAfter: serverWait), serverWait: serverWait)
        default:
            return AttemptError(
                .http(status: status, apiStatus: rpc?.status, message: message, details: rpc?.details ?? []),
                serverWait: serverWait)
        }
    }

    /// The first 200 characters of `data` as text, whitespace collapsed; an HTML page (a
    /// proxy's error page) is reduced to its title, or its text without tags.
    static func excerpt(_ data: Data, limit: Int = 200) -> String {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        guard text.drop(while: \.isWhitespace).first == "<" else {
            return TextExcerpt.collapsed(String(text.prefix(limit * 4)), limit: limit)
        }
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(
                of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            return "an HTML page: "
                + TextExcerpt.collapsed(String(text[open.upperBound..<close.lowerBound]), limit: limit)
        }
        var plain = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; plain.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { plain.append(character) }
        }
        return "an HTML page: " + TextExcerpt.collapsed(plain, limit: limit)
    }

    /// Sends a log line to the configured handler, the API key masked.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard let handler = configuration.logHandler else { return }
        let key = (try? requireAPIKey()).map { [$0] } ?? []
        handler(level, SecretMask.redact(message(), secrets: key))
    }
}

/// Reason phrases of the statuses the API and proxies send.
enum HTTPStatusText {
    static func text(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 499: "Client Closed Request"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
