/// The clock a client's whole-call limit (``GeminiClientConfiguration/callTimeout``) runs on:
/// where a call's ``GeminiCallDeadline`` starts, the one timer that ends the streams that
/// outlast it, and the wait that ends a call over a transport that does not honour deadlines
/// (``GeminiTransport/honoursDeadline``).
///
/// The default, ``GeminiSystemDeadlineClock``, is the real monotonic clock. A test injects a
/// clock it moves itself (``GeminiClientConfiguration/deadlineClock``), so a limit passes when
/// the test says so, with no real wait. Instants are on `ContinuousClock`'s timeline: a test
/// clock starts at `ContinuousClock.now` and moves on from there, so a deadline it starts can
/// still be handed to a transport that watches it on the real clock.
public protocol GeminiDeadlineClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }

    /// Suspends until `deadline` (at once when it has passed).
    /// - Parameter deadline: the instant to wait for.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws

    /// A one-shot timer running `fire` when the instant it is scheduled for passes. A client
    /// makes one for all its streams, not one per call (docs/benchmarks.md).
    /// - Parameter fire: what to run; called outside ``GeminiDeadlineTimer/schedule(at:)``,
    ///   never from within it, once per scheduling that passes.
    /// - Returns: the timer, unscheduled.
    func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any GeminiDeadlineTimer
}

/// A one-shot timer of a ``GeminiDeadlineClock``: scheduled for one instant at a time, and
/// scheduled again for the next after it fired.
public protocol GeminiDeadlineTimer: AnyObject, Sendable {
    /// Schedules the timer for `instant`, replacing the instant it was scheduled for (if it
    /// has not fired yet). An instant already past fires as soon as the clock can, never from
    /// within this call.
    /// - Parameter instant: when the timer fires.
    func schedule(at instant: ContinuousClock.Instant)

    /// Stops the timer for good: it never fires again.
    func cancel()
}
