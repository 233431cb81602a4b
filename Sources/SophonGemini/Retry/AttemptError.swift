/// The failure of one attempt, with what the retry loop needs to decide.
struct AttemptError: Error {
    /// The typed error the caller would see.
    var error: GeminiError
    /// The wait the server asked for (`Retry-After` or `RetryInfo`).
    var serverWait: Duration?
    /// `false` once a stream has delivered a chunk: never retried transparently.
    var allowRetry: Bool

    init(_ error: GeminiError, serverWait: Duration? = nil, allowRetry: Bool = true) {
        self.error = error
        self.serverWait = serverWait
        self.allowRetry = allowRetry
    }
}
