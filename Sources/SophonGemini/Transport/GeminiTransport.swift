import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Moves one HTTP exchange; the seam between the client and the network.
///
/// Retry, fallback and error classification live in ``GeminiAPIClient``, not here. A transport
/// throws ``GeminiError/transport(_:detail:)`` for network failures and `CancellationError`
/// when the calling task is cancelled; an HTTP error status is a normal response.
public protocol GeminiTransport: Sendable {
    /// Sends `request`. For a streaming request the response returns as soon as the headers
    /// arrive and its body is ``GeminiHTTPBody/stream(_:)``, delivering bytes as they come;
    /// otherwise the body is the whole ``GeminiHTTPBody/data(_:)``.
    /// - Throws: ``GeminiError/transport(_:detail:)`` or `CancellationError`.
    func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse

    /// Whether ``send(_:)`` ends a request when its ``GeminiHTTPRequest/deadline`` passes,
    /// throwing ``GeminiCallDeadline/Exceeded``. When `false` (the default), the client enforces
    /// the whole-call limit itself by running each call beside a timer task that cancels it:
    /// right for any transport, but two more tasks and a thread hop per call.
    var honoursDeadline: Bool { get }
}

extension GeminiTransport {
    /// `false`: the client enforces the whole-call limit around the transport.
    public var honoursDeadline: Bool { false }
}

/// One HTTP request as the client builds it.
public struct GeminiHTTPRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL (never holds the API key).
    public var url: URL
    /// Header fields (names as sent; the key travels in `x-goog-api-key`).
    public var headers: [String: String]
    /// The body, for POST.
    public var body: Data?
    /// Idle timeout: the longest wait for the server without any bytes arriving.
    public var timeout: Duration
    /// Whether the body should be delivered as a byte stream (SSE).
    public var streaming: Bool
    /// The end of the call's whole-call limit, set for transports whose
    /// ``GeminiTransport/honoursDeadline`` is `true` (unary requests only).
    public var deadline: GeminiCallDeadline?

    /// Creates a request.
    public init(
        method: String, url: URL, headers: [String: String], body: Data?, timeout: Duration,
        streaming: Bool = false, deadline: GeminiCallDeadline? = nil
    ) {
        self.deadline = deadline
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.streaming = streaming
    }
}

/// One HTTP response: status, headers (names lowercased) and body.
public struct GeminiHTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body, whole or streamed.
    public var body: GeminiHTTPBody

    /// Creates a response; header names are lowercased here.
    public init(status: Int, headers: [String: String], body: GeminiHTTPBody) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The whole body, reading a stream to its end.
    /// - Throws: the stream's transport error, or `CancellationError`.
    public func collectBody() async throws -> Data {
        switch body {
        case .data(let data): return data
        case .stream(let stream):
            var data = Data()
            for try await chunk in stream { data.append(chunk) }
            return data
        }
    }
}

/// A response body: complete, or a stream of byte chunks in arrival order.
public enum GeminiHTTPBody: Sendable {
    /// The whole body.
    case data(Data)
    /// Chunks as they arrive; finishes at EOF, or throws a ``GeminiError/transport(_:detail:)``.
    case stream(AsyncThrowingStream<Data, any Error>)
}

/// The default transport: URLSession (FoundationNetworking on Linux), one session created
/// lazily on first use (touching URLSession costs start-up time and memory), streaming through a
/// `URLSessionDataDelegate` because `bytes(for:)` does not exist on Linux.
public final class URLSessionTransport: GeminiTransport {
    /// The session for streams (with the delegate) and the one for whole-body requests
    /// (without: a session with a delegate queues delegate work on its serial delegate queue for
    /// every task, completion-handler tasks included, which capped 32 concurrent calls).
    private let sessions = Mutex<(streaming: URLSession?, unary: URLSession?)>((nil, nil))
    private let delegate = URLSessionTransportDelegate()
    private let deadlines = DeadlineWatch()

    /// Creates a transport; no URLSession exists until the first request.
    public init() {}

    deinit {
        sessions.withLock {
            $0.streaming?.invalidateAndCancel()
            $0.unary?.invalidateAndCancel()
        }
    }

    /// `true`: a unary request ends when its ``GeminiHTTPRequest/deadline`` passes.
    public var honoursDeadline: Bool { true }

    /// Sends `request` (see ``GeminiTransport/send(_:)``).
    /// - Throws: ``GeminiError/transport(_:detail:)``, `CancellationError`, or
    ///   ``GeminiCallDeadline/Exceeded`` when a unary request's deadline passes first.
    public func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        let components = request.timeout.components
        urlRequest.timeoutInterval = max(
            0.001, Double(components.seconds) + Double(components.attoseconds) / 1e18)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        guard request.streaming else { return try await sendUnary(urlRequest, deadline: request.deadline) }
        let task = currentSession(streaming: true).dataTask(with: urlRequest)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(task: task, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// A whole-body request through `data(for:)`, which calls its completion inline on the
    /// session's own queue: a `dataTask` completion handler goes through the session's
    /// delegate queue first (one more thread hop per call, about 5% of a call's time here).
    /// The request runs in a task of its own so that a passed deadline (watched by the shared
    /// ``DeadlineWatch``) can cancel it without cancelling the caller; it then fails with
    /// ``GeminiCallDeadline/Exceeded``.
    private func sendUnary(
        _ urlRequest: URLRequest, deadline: GeminiCallDeadline?
    ) async throws -> GeminiHTTPResponse {
        if let deadline, deadline.hasPassed { throw GeminiCallDeadline.Exceeded(deadline: deadline) }
        let session = currentSession(streaming: false)
        let fetch = Task { try await session.data(for: urlRequest) }
        let expired = Atomic(false)
        let token = deadline.map { deadline in
            deadlines.watch(until: deadline.instant) {
                expired.store(true, ordering: .releasing)
                fetch.cancel()
            }
        }
        defer { token.map(deadlines.unwatch) }
        do {
            let (data, response) = try await withTaskCancellationHandler {
                try await fetch.value
            } onCancel: {
                fetch.cancel()
            }
            guard let http = response as? HTTPURLResponse else {
                throw GeminiError.transport(.badResponse, detail: "No HTTP response.")
            }
            return URLSessionTransportDelegate.response(http, body: .data(data))
        } catch let error as GeminiError {
            throw error
        } catch {
            if let deadline, expired.load(ordering: .acquiring) {
                throw GeminiCallDeadline.Exceeded(deadline: deadline)
            }
            if error is CancellationError { throw error }
            throw Self.map(error)
        }
    }

    private func currentSession(streaming: Bool) -> URLSession {
        sessions.withLock { sessions in
            if let existing = streaming ? sessions.streaming : sessions.unary { return existing }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpMaximumConnectionsPerHost = 64
            configuration.urlCache = nil
            if streaming {
                let created = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                sessions.streaming = created
                return created
            }
            let created = URLSession(configuration: configuration)
            sessions.unary = created
            return created
        }
    }

    /// Maps a URLSession error to a ``GeminiError`` (or `CancellationError`).
    static func map(_ error: any Error) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return GeminiError.transport(.other, detail: nsError.localizedDescription)
        }
        let detail = "\(nsError.localizedDescription) (\(nsError.code))"
        switch URLError.Code(rawValue: nsError.code) {
        case .cancelled: return CancellationError()
        case .timedOut: return GeminiError.transport(.timedOut, detail: detail)
        case .networkConnectionLost: return GeminiError.transport(.connectionLost, detail: detail)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return GeminiError.transport(.cannotConnect, detail: detail)
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeContentData,
            .cannotDecodeRawData:
            return GeminiError.transport(.badResponse, detail: detail)
        case .unknown where nsError.localizedDescription.hasPrefix("transfer closed with"):
            // A body cut before its Content-Length or last chunk: FoundationNetworking passes on
            // only libcurl's text of CURLE_PARTIAL_FILE ("transfer closed with 271 bytes
            // remaining to read", "... outstanding read data remaining"), as an unknown error.
            return GeminiError.transport(.badResponse, detail: detail)
        default: return GeminiError.transport(.other, detail: detail)
        }
    }
}

/// Routes URLSession delegate callbacks to the waiting streaming request of each task (whole-body
/// requests use `data(for:)` on another session). All state is in a
/// `Mutex`, so the class is Sendable without `@unchecked`.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// A streaming request: its continuation until the response arrives, then its byte stream.
    private struct Pending {
        var continuation: CheckedContinuation<GeminiHTTPResponse, any Error>?
        var stream: AsyncThrowingStream<Data, any Error>.Continuation?
    }

    private let pending = Mutex<[Int: Pending]>([:])

    /// Waits for the response of the streaming request `task`.
    func register(task: URLSessionTask, continuation: CheckedContinuation<GeminiHTTPResponse, any Error>) {
        pending.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let ready: (CheckedContinuation<GeminiHTTPResponse, any Error>, GeminiHTTPResponse)? =
            pending.withLock { table in
                guard let http = response as? HTTPURLResponse, var entry = table[dataTask.taskIdentifier],
                    let continuation = entry.continuation
                else { return nil }
                let (stream, streamContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
                streamContinuation.onTermination = { termination in
                    if case .cancelled = termination { dataTask.cancel() }
                }
                entry.stream = streamContinuation
                entry.continuation = nil
                table[dataTask.taskIdentifier] = entry
                return (continuation, Self.response(http, body: .stream(stream)))
            }
        completionHandler(.allow)
        if let (continuation, response) = ready { continuation.resume(returning: response) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.stream }?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let mapped = error.map(URLSessionTransport.map)
        if let stream = entry.stream {
            if let mapped { stream.finish(throwing: mapped) } else { stream.finish() }
            return
        }
        // No stream: the request failed, or ended without an HTTP response.
        entry.continuation?.resume(
            throwing: mapped ?? GeminiError.transport(.badResponse, detail: "No HTTP response."))
    }

    static func response(_ http: HTTPURLResponse, body: GeminiHTTPBody) -> GeminiHTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return GeminiHTTPResponse(status: http.statusCode, headers: headers, body: body)
    }
}
