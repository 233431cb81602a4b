import Foundation
import SophonCore

/// Every failure of a Gemini call, typed. `description` is user-facing, localized (see
/// ``GeminiLocalization``) and never shows an API key: the client redacts the key it sent from
/// server text (DebugInfo echoes it), and descriptions also mask anything shaped like a Google
/// API key (`AIza` + 35 characters).
public enum GeminiError: Error, Sendable, Hashable {
    /// No API key is configured.
    case missingAPIKey
    /// The server rejected the key (400 API_KEY_INVALID, 401 or 403); `message` is the server's.
    /// `server` is the HTTP status and RPC status the rejection came with (its message is
    /// `message`, which may add the server's debug detail).
    case invalidAPIKey(message: String, server: GeminiServerStatus? = nil)
    /// The model ID is empty or contains characters a model ID cannot have.
    case invalidModelID(String)
    /// The request did not complete at the network level (timeout, reset, refused, truncated).
    case transport(GeminiTransportFailure, detail: String)
    /// An HTTP error status not covered by a more specific case.
    case http(status: Int, apiStatus: String?, message: String, details: [GoogleRPCErrorDetail])
    /// 429 rate limiting; `retryAfter` is the server's requested wait when it gave one.
    /// `server` is the status line the limit came with (`HTTP 429 RESOURCE_EXHAUSTED: ...`,
    /// shown after the summary); `nil` when the error was built without a reply, so
    /// `.rateLimited(retryAfter: wait)` still constructs it (as before `server` was added).
    /// Match it with `case .rateLimited(let wait, _)`.
    case rateLimited(retryAfter: Duration?, server: GeminiServerStatus? = nil)
    /// 429 for an exhausted quota that a short wait will not reset (per-day quotas).
    case quotaExhausted(quotaId: String?, message: String)
    /// 404 for the model: retired, unknown or mistyped; `server` is what the server said
    /// (shown after the summary).
    case modelRetired(modelID: String, server: GeminiServerStatus? = nil)
    /// 400 invalid request, with the server's field violations; `server` is the status line
    /// shown after the summary.
    case invalidRequest(message: String, fieldViolations: [FieldViolation], server: GeminiServerStatus? = nil)
    /// The prompt was blocked (`promptFeedback.blockReason`).
    case promptBlocked(reason: BlockReason?, message: String?)
    /// The answer was blocked (finish reason SAFETY, RECITATION, ...); `partialText` is what
    /// arrived before.
    case contentBlocked(reason: FinishReason, partialText: String)
    /// The answer was cut at the output token limit (MAX_TOKENS) and is not usable as is;
    /// `partialValue` is the repaired partial JSON when the caller asked for it.
    case truncated(partialText: String, partialValue: JSONValue?)
    /// The reply had no usable content (no candidates, no parts, signature-only parts).
    case emptyResponse
    /// The reply had no usable content and stopped for a reason other than STOP or
    /// MAX_TOKENS (`MALFORMED_FUNCTION_CALL`, `OTHER`, ...); `finishMessage` is the server's
    /// explanation when it sent one. Not retried.
    case stoppedWithoutContent(reason: FinishReason, finishMessage: String?)
    /// A stream ended (EOF or a cut event) without a finish reason.
    case streamEndedEarly(partialText: String)
    /// The reply could not be decoded; `excerpt` is a short part of the raw text.
    case decodingFailed(reason: String, excerpt: String)
    /// An inline media file is larger than the limit (bytes), refused before reading it.
    case mediaTooLarge(path: String, bytes: Int, limit: Int)
    /// An inline media file could not be read.
    case mediaUnreadable(path: String, reason: String)
    /// The model's tool use failed: `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`,
    /// `TOO_MANY_TOOL_CALLS` (docs/library.md). Not retried: the request was valid; the server's
    /// `finishMessage` says what went wrong.
    case toolCallFailed(reason: FinishReason, finishMessage: String?)

    /// Whether retrying the same request may succeed: transport failures, 408/500/502/503/504,
    /// rate limiting and a stream that ended early. Never: key problems, 400/401/403/404/499,
    /// per-day quota, blocked content, empty or undecodable replies, truncation at MAX_TOKENS.
    public var isRetryable: Bool {
        switch self {
        case .transport, .rateLimited, .streamEndedEarly: true
        case .http(let status, _, _, _): [408, 429, 500, 502, 503, 504].contains(status)
        default: false
        }
    }

    /// The user-facing description in `language` (`en`, `es`, `zh-Hans`, `zh-Hant`; `nil`
    /// picks from the environment).
    public func description(language: String?) -> String {
        let table = GeminiLocalization(language: language)
        return KeyShapeMask.maskLikelyKeys(in: GeminiErrorText(error: self, table: table).text)
    }

    /// A copy with every occurrence of each secret replaced by its masked form (`••••cD3f`).
    public func redacting(_ secrets: [String]) -> GeminiError {
        let secrets = secrets.filter { $0.count >= 4 }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String) -> String { SecretMask.redact(text, secrets: secrets) }
        func clean(_ server: GeminiServerStatus) -> GeminiServerStatus {
            GeminiServerStatus(
                status: server.status, apiStatus: server.apiStatus, message: clean(server.message))
        }
        func clean(_ details: [GoogleRPCErrorDetail]) -> [GoogleRPCErrorDetail] {
            details.map { detail in
                var copy = detail
                copy.detail = detail.detail.map(clean)
                copy.message = detail.message.map(clean)
                return copy
            }
        }
        switch self {
        case .invalidAPIKey(let message, let server):
            return .invalidAPIKey(message: clean(message), server: server.map(clean))
        case .transport(let failure, let detail): return .transport(failure, detail: clean(detail))
        case .http(let status, let apiStatus, let message, let details):
            return .http(
                status: status, apiStatus: apiStatus, message: clean(message), details: clean(details))
        case .quotaExhausted(let quotaId, let message):
            return .quotaExhausted(quotaId: quotaId, message: clean(message))
        case .invalidRequest(let message, let violations, let server):
            return .invalidRequest(
                message: clean(message),
                fieldViolations: violations.map {
                    FieldViolation(field: $0.field, description: $0.description.map(clean))
                }, server: server.map(clean))
        case .modelRetired(let modelID, let server):
            return .modelRetired(modelID: modelID, server: server.map(clean))
        case .rateLimited(let wait, let server):
            return .rateLimited(retryAfter: wait, server: server.map(clean))
        case .promptBlocked(let reason, let message):
            return .promptBlocked(reason: reason, message: message.map(clean))
        case .decodingFailed(let reason, let excerpt):
            return .decodingFailed(reason: clean(reason), excerpt: clean(excerpt))
        case .stoppedWithoutContent(let reason, let message):
            return .stoppedWithoutContent(reason: reason, finishMessage: message.map(clean))
        default: return self
        }
    }
}

extension GeminiError: CustomStringConvertible, LocalizedError {
    /// The description in the environment's language (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
    public var description: String { description(language: nil) }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

/// What went wrong at the network level.
public enum GeminiTransportFailure: String, Sendable, Hashable, CaseIterable {
    /// The request or the whole call exceeded its timeout.
    case timedOut
    /// The connection was reset or lost mid-request.
    case connectionLost
    /// The server could not be reached (refused, unknown host).
    case cannotConnect
    /// The body ended before it was complete, or was not the JSON the API sends.
    case badResponse
    /// Any other network error.
    case other
}

extension GeminiError {
    /// What the server said with the error status this error comes from (`HTTP 429
    /// RESOURCE_EXHAUSTED: ...`), shown after the localized summary (docs/library.md, "Errors");
    /// `nil` for errors that did not come from an error status, or were built without one.
    public var serverStatus: GeminiServerStatus? {
        switch self {
        case .invalidAPIKey(_, let server), .modelRetired(_, let server), .invalidRequest(_, _, let server),
            .rateLimited(_, let server):
            return server
        case .http(let status, let apiStatus, let message, _):
            return GeminiServerStatus(status: status, apiStatus: apiStatus, message: message)
        case .quotaExhausted(_, let message):
            return GeminiServerStatus(status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: message)
        default:
            return nil
        }
    }
}

/// What the server said with an error status: the HTTP status code, its Google RPC `status`
/// and its `message`, kept after the localized summary of an error so a user sees the server's
/// own words (docs/library.md, "Errors").
///
/// `description` reads `HTTP 404 NOT_FOUND: models/x is not found for API version v1beta`
/// (`HTTP 404: ...` when the body had no RPC status).
public struct GeminiServerStatus: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status code (e.g. 404).
    public var status: Int
    /// The RPC status name (`NOT_FOUND`, `INVALID_ARGUMENT`), when the body had one.
    public var apiStatus: String?
    /// The server's message, or an excerpt of a body that was not an RPC error.
    public var message: String

    /// Creates a status from its parts.
    public init(status: Int, apiStatus: String?, message: String) {
        self.status = status
        self.apiStatus = apiStatus
        self.message = message
    }

    /// `HTTP STATUS API_STATUS` (`HTTP 400 INVALID_ARGUMENT`), without the message.
    public var label: String {
        let name = apiStatus.map { $0.isEmpty ? "" : " " + $0 } ?? ""
        return "HTTP \(status)\(name)"
    }

    /// `HTTP STATUS API_STATUS: MESSAGE`.
    public var description: String { "\(label): \(message)" }
}

/// Reason phrases of the statuses the API and proxies send.
enum HTTPStatusText {
    /// `Too Many Requests` for 429; empty for a status not listed.
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

/// What can go wrong with a file of the Files API beyond the errors every call shares
/// (``GeminiError``): the file's own state, or a reply the upload protocol does not allow
/// (docs/library.md, "Files").
public enum GeminiFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server ended processing with `FAILED`; `message` is its `error.message` when given.
    case processingFailed(name: String, message: String?)
    /// The file was still `PROCESSING` when the wait's limit passed.
    case processingTimedOut(name: String, waited: Duration)
    /// A 403 `PERMISSION_DENIED` for a file: it is missing, deleted, expired or someone else's
    /// ("... or it may not exist"). Not a key problem. `message` is the server's status line
    /// (`HTTP 403 PERMISSION_DENIED: ...`).
    case notFound(name: String, message: String)
    /// The file's `expirationTime` has passed (``GeminiFile/checkUsable(now:)``, before it is used).
    case expired(name: String, expirationTime: String)
    /// The upload protocol broke: no session URL, a status the protocol does not allow, all
    /// bytes sent but the upload not finalized, or an offset outside the file.
    case uploadFailed(detail: String)
    /// Download asked for a file that has no download (uploaded files cannot be downloaded).
    case notDownloadable(name: String)

    /// An English, one-line description.
    public var description: String {
        switch self {
        case .processingFailed(let name, let message):
            "File \(name) failed processing" + (message.map { ": \($0)" } ?? ".")
        case .processingTimedOut(let name, let waited):
            "File \(name) was still PROCESSING after \(Self.seconds(waited)) s."
        case .notFound(let name, let message):
            "File \(name) does not exist, has expired or is not yours: \(message)"
        case .expired(let name, let time):
            "File \(name) expired at \(time)."
        case .uploadFailed(let detail):
            "Upload failed: \(detail)"
        case .notDownloadable(let name):
            "File \(name) cannot be downloaded: only generated files can."
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

extension GeminiFileError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
