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
