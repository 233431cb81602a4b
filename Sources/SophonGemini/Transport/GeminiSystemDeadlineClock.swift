import Dispatch
import Synchronization

/// The real clock for the whole-call limit (the default ``GeminiClientConfiguration/deadlineClock``):
/// `ContinuousClock` (monotonic, counting while the machine sleeps), `Task.sleep`, and a
/// Dispatch timer source per ``makeTimer(_:)`` with a 5 ms leeway.
public struct GeminiSystemDeadlineClock: GeminiDeadlineClock {
    /// Creates the clock (it holds no state).
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// `Task.sleep(until:)` on `ContinuousClock`.
    /// - Parameter deadline: the instant to wait for.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }

    /// A Dispatch timer source on a serial queue of its own, running `fire` there.
    /// - Parameter fire: what to run when a scheduled instant passes.
    /// - Returns: the timer, unscheduled.
    public func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any GeminiDeadlineTimer {
        DispatchDeadlineTimer(fire)
    }
}

/// A Dispatch timer source scheduled for `ContinuousClock` instants: the wait left is turned
/// into a dispatch deadline when the timer is scheduled.
final class DispatchDeadlineTimer: GeminiDeadlineTimer {
    // The source behind a lock: Dispatch's timer types are not `Sendable`.
    private let source: Mutex<any DispatchSourceTimer>

    init(_ fire: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sophon.deadline-watch"))
        timer.setEventHandler(handler: fire)
        timer.activate()
        source = Mutex(timer)
    }

    deinit { source.withLock { $0.cancel() } }

    func schedule(at instant: ContinuousClock.Instant) {
        let wait = max(.zero, instant - .now).components
        let nanoseconds = wait.seconds * 1_000_000_000 + wait.attoseconds / 1_000_000_000
        source.withLock {
            $0.schedule(deadline: .now() + .nanoseconds(Int(nanoseconds)), leeway: .milliseconds(5))
        }
    }

    func cancel() { source.withLock { $0.cancel() } }
}
