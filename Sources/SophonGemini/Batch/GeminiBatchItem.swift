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
    /// The item as a result, read by ``GeminiAnswerReader`` (`structured`: the request asked for
    /// JSON): the answer's value, or the typed error a live call would have thrown (a per-item
    /// error by its status, a blocked prompt `promptBlocked`, a blocked answer `contentBlocked`,
    /// no content `emptyResponse`).
    public func outcome(structured: Bool) -> Result<
        (value: JSONValue, response: GenerateContentResponse), GeminiError
    > {
        GeminiAnswerReader(wantsJSON: structured).read(self).map { ($0.value, $0.response) }
    }
}
