/// Whether a failed attempt is retried, and after how long: the one place a wait is decided
/// (the computed backoff, or the server's `Retry-After` / `RetryInfo` wait of a 429 or 503).
enum RetryDecision: Equatable {
    /// Retry after `wait`.
    case retry(wait: Duration)
    /// Fail the call with `error`.
    case fail(GeminiError)

    /// Decides after attempt `attempt` of `attempts` failed with `failure` (docs/library.md).
    ///
    /// A failure that may not be retried (not retryable, a stream that already delivered, the
    /// last attempt) fails. Otherwise the wait is the policy's backoff (`random` is drawn only
    /// then), replaced by the server's wait when the policy honours it; a server wait beyond
    /// `maxServerWait` fails at once with ``GeminiError/rateLimited(retryAfter:server:)`` (with the status line the
    /// wait came with). A wait that
    /// would outlast `deadline` is not started: the call fails now with what went wrong (or,
    /// for a server wait, `rateLimited`) rather than sleep out the budget and report only a
    /// timeout.
    static func after(
        _ failure: AttemptError, attempt: Int, of attempts: Int, policy: GeminiRetryPolicy,
        deadline: GeminiCallDeadline?, random: () -> Double
    ) -> RetryDecision {
        let error = failure.error
        guard failure.allowRetry, error.isRetryable, attempt < attempts else { return .fail(error) }
        var wait = policy.computedWait(beforeRetry: attempt, random: random())
        var isServerWait = false
        if policy.honoursServerWait, let serverWait = failure.serverWait {
            if serverWait > policy.maxServerWait {
                return .fail(.rateLimited(retryAfter: serverWait, server: error.serverStatus))
            }
            wait = serverWait
            isServerWait = true
        }
        if let deadline, deadline.remaining <= wait {
            return .fail(isServerWait ? .rateLimited(retryAfter: wait, server: error.serverStatus) : error)
        }
        return .retry(wait: wait)
    }
}
