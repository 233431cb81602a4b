import Synchronization

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

    /// When the call's time is up (monotonic clock: `ContinuousClock`'s timeline).
    public var instant: ContinuousClock.Instant
    /// The configured limit, for the message.
    public var limit: Duration

    /// A deadline `limit` after `start` (the client starts its calls' deadlines at its
    /// ``GeminiClientConfiguration/deadlineClock``'s `now`).
    public init(limit: Duration, start: ContinuousClock.Instant = .now) {
        self.limit = limit
        instant = start.advanced(by: limit)
    }

    /// The time left on the real clock: zero once the deadline has passed.
    public var remaining: Duration { remaining(at: .now) }

    /// The time left at `now` (an instant of the clock the deadline was started on): zero once
    /// the deadline has passed.
    func remaining(at now: ContinuousClock.Instant) -> Duration { max(.zero, instant - now) }

    /// Whether the deadline has passed on the real clock.
    public var hasPassed: Bool { ContinuousClock.now >= instant }

    /// The error the call fails with: `.timedOut`, "The call exceeded its limit of N s."
    public var error: GeminiError {
        .transport(.timedOut, detail: "The call exceeded its limit of \(GeminiErrorText.seconds(limit)) s.")
    }
}

/// Runs an action when a deadline passes, for many in-flight requests with one timer: the
/// timer is armed for the earliest deadline watched, so watching a request costs a table
/// insert and removal, not a timer of its own (requests finish long before their 180 s limit;
/// a timer per request would stay queued for the full limit after the request ended). The
/// timer is the clock's (``GeminiDeadlineClock/makeTimer(_:)``), made on the first watch.
final class DeadlineWatch: Sendable {
    private struct Entry {
        let instant: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextToken = 0
        /// The deadline the timer is armed for; `nil` when it is idle.
        var armedFor: ContinuousClock.Instant?
        var timer: (any GeminiDeadlineTimer)?
    }

    private let state = Mutex(State())
    private let clock: any GeminiDeadlineClock

    /// A watch whose deadlines pass on `clock`.
    init(clock: any GeminiDeadlineClock = GeminiSystemDeadlineClock()) { self.clock = clock }

    deinit { state.withLock { $0.timer?.cancel() } }

    /// Calls `expire` once `instant` passes, unless ``unwatch(_:)`` comes first.
    /// - Returns: the token for ``unwatch(_:)``.
    func watch(until instant: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken &+= 1
            state.entries[token] = Entry(instant: instant, expire: expire)
            if let armed = state.armedFor, armed <= instant { return token }
            arm(&state, at: instant)
            return token
        }
    }

    /// Stops watching; the timer stays armed for the earliest deadline it knew and re-arms
    /// for the next one when it fires.
    func unwatch(_ token: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: token) }
    }

    private func arm(_ state: inout State, at instant: ContinuousClock.Instant) {
        let timer: any GeminiDeadlineTimer
        if let existing = state.timer {
            timer = existing
        } else {
            timer = clock.makeTimer { [weak self] in self?.fire() }
            state.timer = timer
        }
        timer.schedule(at: instant)
        state.armedFor = instant
    }

    private func fire() {
        let now = clock.now
        let expired = state.withLock { state -> [Entry] in
            var due: [Entry] = []
            var next: ContinuousClock.Instant?
            for (token, entry) in state.entries {
                if entry.instant <= now {
                    due.append(entry)
                    state.entries.removeValue(forKey: token)
                } else if next.map({ entry.instant < $0 }) ?? true {
                    next = entry.instant
                }
            }
            state.armedFor = nil
            if let next { arm(&state, at: next) }
            return due
        }
        for entry in expired { entry.expire() }
    }
}
