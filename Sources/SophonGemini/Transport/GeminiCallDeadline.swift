/// The end of a call's whole-call time limit (``GeminiClientConfiguration/callTimeout``,
/// docs/library.md: 180 s by default), covering every attempt and every wait between them.
///
/// The client hands it to transports that say they honour it
/// (``GeminiTransport/honoursDeadline``) in ``GeminiHTTPRequest/deadline``; such a transport
/// ends the request when the deadline passes and throws ``GeminiCallDeadline/Exceeded``, which
/// the client reports as ``GeminiError/transport(_:detail:)`` (`.timedOut`).
public struct GeminiCallDeadline: Sendable, Hashable {
    /// Thrown by a transport (or a wait between attempts) when the call's deadline has passed.
    /// Never retried: the client turns it into ``GeminiCallDeadline/error``.
    public struct Exceeded: Error, Sendable, Hashable {
        /// The deadline that passed.
        public var deadline: GeminiCallDeadline
        /// Creates the error for `deadline`.
        public init(deadline: GeminiCallDeadline) { self.deadline = deadline }
    }

    /// When the call's time is up (monotonic clock).
    public var instant: ContinuousClock.Instant
    /// The configured limit, for the message.
    public var limit: Duration

    /// A deadline `limit` after `start`.
    public init(limit: Duration, start: ContinuousClock.Instant = .now) {
        self.limit = limit
        instant = start.advanced(by: limit)
    }

    /// The time left: zero once the deadline has passed.
    public var remaining: Duration { max(.zero, instant - .now) }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// The error the call fails with: `.timedOut`, "The call exceeded its limit of N s."
    public var error: GeminiError {
        .transport(.timedOut, detail: "The call exceeded its limit of \(GeminiErrorText.seconds(limit)) s.")
    }
}
