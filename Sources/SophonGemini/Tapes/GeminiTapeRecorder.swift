import Foundation
import SophonCore

/// A transport that passes every request to another transport and records each exchange on a
/// tape as the run goes (docs/tapes.md; the line format is ``GeminiTapeResponse``'s).
///
/// - Whole bodies are recorded when they arrive; streamed bodies still stream to the caller
///   chunk by chunk, and their line is written when the stream ends, fails, or the caller stops
///   reading (`"error": "cancelled"`), with what was seen until then.
/// - Transport failures are recorded (`"error": "transport"`) and rethrown, so a replay
///   reproduces them.
/// - Lines go out in the order the requests were sent, one `write(2)` each on a file opened
///   `O_APPEND`: a killed run leaves a readable prefix.
/// - The key never reaches the file: request headers are not recorded, only `content-type`
///   and `retry-after` of the response headers are, and every string of a line is masked
///   (`SecretMask.redact(_:secrets:)` of SophonCore) for the configured secrets, the bearer token
///   of `authorization` (Vertex AI; OAuth grants themselves are never taped) and the `x-goog-api-key`
///   the request carried, before the line is written (the server echoes an invalid key in its
///   error body).
///
/// ```swift
/// let recorder = try GeminiTapeRecorder(
///     wrapping: URLSessionTransport(), tapeURL: tapeURL, baseURL: configuration.baseURL, secrets: [key])
/// let client = GeminiAPIClient(configuration: configuration, transport: recorder)
/// ```
public final class GeminiTapeRecorder: GeminiTransport {
    /// The transport that does the real work.
    public let inner: any GeminiTransport
    /// The tape file.
    public let tapeURL: URL

    private let writer: GeminiTapeWriter
    private let baseURL: URL?
    private let secrets: [String]
    private let warning: (@Sendable (String) -> Void)?

    /// Creates (or truncates) the tape file and writes its header line.
    /// - Parameters:
    ///   - inner: the transport requests go to.
    ///   - tapeURL: the tape file.
    ///   - baseURL: the client's base URL; its path prefix (without a trailing `/v1beta`) is
    ///     stripped from recorded paths, so a tape does not depend on a proxy's prefix.
    ///   - secrets: strings masked wherever they appear (the API key).
    ///   - warning: receives a one-line message when a line cannot be written (the run goes
    ///     on; later lines are dropped). Lines wait for every earlier request's line: a stream
    ///     nobody reads to its end nor cancels holds back the lines after it.
    /// - Throws: ``GeminiTapeError/unwritable(path:reason:)``.
    public init(
        wrapping inner: any GeminiTransport, tapeURL: URL, baseURL: URL? = nil, secrets: [String] = [],
        warning: (@Sendable (String) -> Void)? = nil
    ) throws(GeminiTapeError) {
        self.inner = inner
        self.tapeURL = tapeURL
        self.baseURL = baseURL
        self.secrets = secrets.filter { !$0.isEmpty }
        self.warning = warning
        writer = try GeminiTapeWriter(url: tapeURL)
    }

    /// The inner transport's: the recorder adds no waiting of its own.
    public var honoursDeadline: Bool { inner.honoursDeadline }

    /// Records one served tool call as a `{"tool": CALL}` line, after the exchanges sent so far
    /// (docs/tapes.md). `call` is `{"name", "args", "server", "result" | "error"}`.
    public func recordToolCall(_ call: JSONValue) {
        let slot = writer.reserve()
        let line = Self.maskedLine(.object([JSONMember("tool", call)]), secrets)
        if let failure = writer.complete(slot, line: line) { warning?(failure.description) }
    }

    /// The first failure to write the tape, if any.
    public var writeFailure: GeminiTapeError? { writer.failure }

    /// Sends `request` through ``inner`` and records the exchange.
    /// - Throws: what ``inner`` throws (after recording it).
    public func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        // An OAuth grant (form-encoded: a refresh token or a signed assertion out, an access
        // token back) is never taped: it is all secrets, and a replay needs no token.
        if request.headers.contains(where: {
            $0.key.lowercased() == "content-type" && $0.value.hasPrefix("application/x-www-form-urlencoded")
        }) {
            return try await inner.send(request)
        }
        let slot = writer.reserve()
        let recorded = GeminiTapeRequest(
            method: request.method, path: GeminiTapeRequest.path(of: request.url, baseURL: baseURL),
            body: GeminiTapeBody.requestValue(of: request.body))
        let sentKeys = request.headers.compactMap { name, value -> String? in
            switch name.lowercased() {
            case "x-goog-api-key": value
            case "authorization":
                value.hasPrefix("Bearer ") ? String(value.dropFirst("Bearer ".count)) : value
            default: nil
            }
        }
        let secrets = self.secrets + sentKeys.filter { !$0.isEmpty }
        let response: GeminiHTTPResponse
        do {
            response = try await inner.send(request)
        } catch {
            record(
                slot, recorded, GeminiTapeResponse(status: nil, failure: GeminiTapeFailure(error)), secrets)
            throw error
        }
        let headers = response.headers.filter { GeminiTapeResponse.keptHeaderNames.contains($0.key) }
        switch response.body {
        case .data(let data):
            let tape = GeminiTapeResponse(
                status: response.status, headers: headers, payload: GeminiTapeBody.payload(of: data))
            record(slot, recorded, tape, secrets)
            return response
        case .stream(let source):
            let isEventStream = headers["content-type"]?.lowercased().contains("text/event-stream") ?? false
            let status = response.status
            let stream = Self.tee(source) { [self] data, failure in
                let payload =
                    isEventStream ? GeminiTapeBody.eventsPayload(of: data) : GeminiTapeBody.payload(of: data)
                let tape = GeminiTapeResponse(
                    status: status, headers: headers, payload: payload, failure: failure)
                record(slot, recorded, tape, secrets)
            }
            return GeminiHTTPResponse(
                status: response.status, headers: response.headers, body: .stream(stream))
        }
    }

    /// Writes one exchange's line, masked.
    private func record(
        _ slot: Int, _ request: GeminiTapeRequest, _ response: GeminiTapeResponse, _ secrets: [String]
    ) {
        let line = Self.maskedLine(
            GeminiTapeExchange(request: request, response: response).jsonValue, secrets)
        if let failure = writer.complete(slot, line: line) { warning?(failure.description) }
    }

    /// The compact line of `value` with every secret masked: in each string and key of the
    /// value, then over the whole line (kept only when the line still parses).
    static func maskedLine(_ value: JSONValue, _ secrets: [String]) -> String {
        guard !secrets.isEmpty else { return value.compactText }
        let masked = value.redacting(secrets).compactText
        let line = SecretMask.redact(masked, secrets: secrets)
        return line == masked || (try? JSONValue(parsing: line)) != nil ? line : masked
    }

    /// Forwards `source` chunk by chunk and calls `completion` once with every byte seen and
    /// how the stream ended, before the forwarded stream ends. Stopping the forwarded stream
    /// cancels reading `source`.
    static func tee(
        _ source: AsyncThrowingStream<Data, any Error>,
        completion: @escaping @Sendable (Data, GeminiTapeFailure?) -> Void
    ) -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let pump = Task {
            var seen = Data()
            do {
                for try await chunk in source {
                    seen.append(chunk)
                    continuation.yield(chunk)
                }
                completion(seen, Task.isCancelled ? .cancelled : nil)
                continuation.finish()
            } catch {
                completion(seen, GeminiTapeFailure(error))
                continuation.finish(afterFeedingFailed: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return stream
    }
}

extension GeminiTapeRequest {
    /// The tape path of `url`: its path and query, with the path prefix of `baseURL` (the part
    /// before the client's `/v1beta`) removed.
    /// `https://proxy.example/gemini/v1beta/models?pageSize=5` with base
    /// `https://proxy.example/gemini` gives `/v1beta/models?pageSize=5`.
    public static func path(of url: URL, baseURL: URL?) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? url.path
        if let baseURL {
            var prefix = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
            while prefix.hasSuffix("/") { prefix.removeLast() }
            if prefix.hasSuffix("/" + SophonGemini.apiVersion) {
                prefix.removeLast(SophonGemini.apiVersion.count + 1)
            }
            if !prefix.isEmpty, path.hasPrefix(prefix + "/") { path.removeFirst(prefix.count) }
        }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        return path
    }
}

extension JSONValue {
    /// The value with every secret masked in its strings and member names.
    fileprivate func redacting(_ secrets: [String]) -> JSONValue {
        switch self {
        case .string(let text): .string(SecretMask.redact(text, secrets: secrets))
        case .array(let elements): .array(elements.map { $0.redacting(secrets) })
        case .object(let members):
            .object(
                members.map {
                    JSONMember(SecretMask.redact($0.key, secrets: secrets), $0.value.redacting(secrets))
                })
        default: self
        }
    }
}
