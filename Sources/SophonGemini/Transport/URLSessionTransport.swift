import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
