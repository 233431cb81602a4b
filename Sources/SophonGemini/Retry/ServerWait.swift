import Foundation

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
