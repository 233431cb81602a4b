import Foundation
import SophonCore

/// One recorded HTTP exchange of a tape: the request as the client sent it and what came back.
///
/// On disk it is one JSON line (docs/tapes.md):
/// `{"request": {"method", "path", "body"}, "response": {...}}`; see ``GeminiTapeResponse`` for
/// the response fields.
public struct GeminiTapeExchange: Sendable, Hashable {
    /// The request: method, path and body.
    public var request: GeminiTapeRequest
    /// The response, or how the exchange failed.
    public var response: GeminiTapeResponse
    /// The 1-based line of the tape file this exchange came from; 0 when it was not loaded.
    public var line: Int

    /// Creates an exchange.
    public init(request: GeminiTapeRequest, response: GeminiTapeResponse, line: Int = 0) {
        self.request = request
        self.response = response
        self.line = line
    }
}

/// The recorded part of a request; headers (and with them the API key) are never recorded.
public struct GeminiTapeRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The URL path and query below the base URL's own prefix:
    /// `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`.
    public var path: String
    /// The body as a JSON value; ``JSONValue/null`` when there is none, a string when the body
    /// was not JSON.
    public var body: JSONValue

    /// Creates a recorded request.
    public init(method: String, path: String, body: JSONValue = .null) {
        self.method = method
        self.path = path
        self.body = body
    }
}

/// The recorded part of a response.
///
/// On disk: `status`, `headers` (a sorted object of the kept headers), then one of
/// - `body`: the JSON value when the body is a JSON object or array (replayed pretty-printed
///   with two spaces, as the server sends it), else the text as a string (an HTML 502 page);
/// - `events`: for `text/event-stream` responses, the `data` payloads in order (JSON values
///   when they parse, else strings), each replayed as `data: <compact JSON>\r\n\r\n`; with
///   `trailer`: text the server sent after the events that is not an SSE field (a raw, often
///   multi-line `{"error": ...}` after a 200), as a JSON value when it parses, else a string;
///   and `unterminated`: the data of a last event cut by the end of the stream before its
///   blank line;
///
/// and, when the exchange failed, `error`: `"transport"` (with `failure`, a
/// ``GeminiTransportFailure`` name, and `detail`) or `"cancelled"`. A failure without `status`
/// happened before any response; with `status` it cut the body, and what arrived before it is
/// kept.
public struct GeminiTapeResponse: Sendable, Hashable {
    /// What a response carried.
    public enum Payload: Sendable, Hashable {
        /// A whole body: a JSON object or array, or text as a string.
        case body(JSONValue)
        /// Server-sent events: the `data` payloads in order, the non-SSE text after them, and the
        /// data of an event cut by the end of the stream.
        case events([JSONValue], trailer: JSONValue?, unterminated: String?)
    }

    /// The HTTP status; `nil` when the request failed before a response.
    public var status: Int?
    /// The kept headers (lowercased names): `content-type`, `retry-after` and the Files API's
    /// upload headers, never a secret.
    public var headers: [String: String]
    /// The body or events; `nil` for no body.
    public var payload: Payload?
    /// How the exchange failed, if it did.
    public var failure: GeminiTapeFailure?

    /// The header names a recording keeps; everything else (cookies, server internals) is
    /// dropped. The upload headers (`x-goog-upload-url`, `-status`, `-size-received`) let a
    /// recorded upload replay (docs/library.md, "Files").
    public static let keptHeaderNames: Set<String> = [
        "content-type", "retry-after", "x-goog-upload-url", "x-goog-upload-status",
        "x-goog-upload-size-received",
    ]

    /// Creates a recorded response.
    public init(
        status: Int?, headers: [String: String] = [:], payload: Payload? = nil,
        failure: GeminiTapeFailure? = nil
    ) {
        self.status = status
        self.headers = headers
        self.payload = payload
        self.failure = failure
    }
}

/// How a recorded exchange failed.
public enum GeminiTapeFailure: Sendable, Hashable {
    /// A network failure, replayed as ``GeminiError/transport(_:detail:)`` with the same values.
    case transport(GeminiTransportFailure, detail: String)
    /// The caller cancelled the request; replayed as `CancellationError`.
    case cancelled

    /// The error a replay throws for this failure.
    var replayError: any Error {
        switch self {
        case .transport(let failure, let detail): GeminiError.transport(failure, detail: detail)
        case .cancelled: CancellationError()
        }
    }

    /// The failure an error thrown by a transport (or its body stream) stands for.
    init(_ error: any Error) {
        switch error {
        case GeminiError.transport(let failure, let detail): self = .transport(failure, detail: detail)
        case let error as GeminiError: self = .transport(.other, detail: error.description(language: "en"))
        case is CancellationError: self = .cancelled
        default: self = .transport(.other, detail: String(describing: error))
        }
    }
}
