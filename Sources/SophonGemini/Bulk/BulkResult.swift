import SophonCore

/// The outcome of one ``BulkRequest``, in the order calls finish (not input order).
public struct BulkResult: Sendable {
    /// What the call produced.
    public enum Outcome: Sendable {
        /// The answer: a JSON value for a structured request, a string for text; the model
        /// that answered and the reply's token counts.
        case success(value: JSONValue, modelID: String, usage: UsageMetadata?)
        /// The call failed for good (after the run's retries).
        case failure(GeminiError)
    }

    /// The request's key.
    public var key: String
    /// What came back.
    public var outcome: Outcome
    /// How many 429 answers this key met before its outcome.
    public var rateLimitedCount: Int

    /// Creates a result.
    public init(key: String, outcome: Outcome, rateLimitedCount: Int = 0) {
        self.key = key
        self.outcome = outcome
        self.rateLimitedCount = rateLimitedCount
    }

    /// Whether the call succeeded.
    public var isSuccess: Bool {
        if case .success = outcome { return true }
        return false
    }
}
