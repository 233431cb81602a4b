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
