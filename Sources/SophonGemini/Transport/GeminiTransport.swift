import Foundation

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
