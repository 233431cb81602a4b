import SophonCore

/// One answered request of a Batch job: its key (`metadata.key` inline, `key` in a results
/// file; `nil` when the server sent none) and its response or per-item error.
public struct GeminiBatchItem: Sendable {
    /// The request's key.
    public var key: String?
    /// The response; a blocked prompt has `promptFeedback.blockReason` and no candidates.
    public var response: GenerateContentResponse?
    /// The per-item error.
    public var error: GoogleRPCStatus?

    /// Creates an item.
    public init(key: String?, response: GenerateContentResponse?, error: GoogleRPCStatus?) {
        self.key = key
        self.response = response
        self.error = error
    }
}

extension GeminiBatchItem {
    /// The item as a result: the answer text (parsed as JSON when `structured` and it is
    /// JSON), or the typed error a live call would have thrown: a per-item error by its HTTP
    /// code (400 `invalidRequest`, 429 `rateLimited`, else `http`), a blocked prompt
    /// `promptBlocked`, a blocked answer `contentBlocked`, no content `emptyResponse`.
    public func outcome(structured: Bool) -> Result<
        (value: JSONValue, response: GenerateContentResponse), GeminiError
    > {
        if let error {
            let code = error.code ?? 500
            let message = error.message ?? ""
            switch code {
            case 400: return .failure(.invalidRequest(message: message, fieldViolations: []))
            case 429:
                return .failure(
                    .rateLimited(
                        retryAfter: nil,
                        server: GeminiServerStatus(status: code, apiStatus: error.status, message: message)))
            default:
                return .failure(.http(status: code, apiStatus: error.status, message: message, details: []))
            }
        }
        guard let response else { return .failure(.emptyResponse) }
        do {
            try ReplyCheck.check(response)
        } catch let error as GeminiError {
            return .failure(error)
        } catch {
            return .failure(.emptyResponse)
        }
        let text = response.text
        if structured, let value = try? JSONValue(parsing: text) { return .success((value, response)) }
        return .success((.string(text), response))
    }
}
