import Foundation

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
    /// would outlast `timeLeft` (the time left before the call's deadline, read on the
    /// configuration's deadline clock; `nil` without a deadline) is not started: the call
    /// fails now with what went wrong (or, for a server wait, `rateLimited`) rather than sleep
    /// out the budget and report only a timeout.
    static func after(
        _ failure: AttemptError, attempt: Int, of attempts: Int, policy: GeminiRetryPolicy,
        timeLeft: Duration?, random: () -> Double
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
        if let timeLeft, timeLeft <= wait {
            return .fail(isServerWait ? .rateLimited(retryAfter: wait, server: error.serverStatus) : error)
        }
        return .retry(wait: wait)
    }
}

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

/// Reads the wait a server asks for before a retry.
enum ServerWait {
    /// The `Retry-After` header (delta-seconds, or an HTTP date relative to `now`; a past date
    /// is zero), else `RetryInfo.retryDelay` of the error body; `nil` when neither is usable.
    static func wait(headers: [String: String], status: GoogleRPCStatus?, now: Date = Date()) -> Duration? {
        if let header = headers["retry-after"], let wait = retryAfter(header, now: now) { return wait }
        return status?.retryDelay
    }

    /// Parses a `Retry-After` value: `120`, `1.5`, or `Wed, 21 Oct 2015 07:28:00 GMT`.
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
            return capped(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return capped(max(0, date.timeIntervalSince(now)))
            }
        }
        return nil
    }

    /// `seconds` as a duration, capped at 10^9 s (about 31 years): a wait that long is still a
    /// wait past `maxServerWait`, so the call fails at once rather than retrying early.
    private static func capped(_ seconds: Double) -> Duration {
        .milliseconds(Int64((min(seconds, 1e9) * 1000).rounded()))
    }
}
