import Synchronization

@testable import SophonGemini

/// A deadline clock that moves only when the test moves it: ``now`` starts at the real
/// `ContinuousClock.now` and stays there until ``advance(by:)``, which fires the timers and
/// wakes the sleepers whose instant it reaches before it returns. A timer scheduled for an
/// instant already reached fires at the next ``advance(by:)`` (never from within its
/// `schedule(at:)`). Test support only.
final class ManualDeadlineClock: GeminiDeadlineClock {
    private struct Sleeper {
        let instant: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var nextID = 0
        /// The fire action of every timer made and not cancelled, by timer.
        var actions: [Int: @Sendable () -> Void] = [:]
        /// The instant each scheduled timer fires at, by timer.
        var scheduled: [Int: ContinuousClock.Instant] = [:]
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps cancelled before they started waiting.
        var cancelled: Set<Int> = []
        /// Tests waiting for a number of sleepers.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the waiters whose count of sleepers is reached.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { $0.count <= sleepers.count }.map(\.continuation)
            waiters.removeAll { $0.count <= sleepers.count }
            return ready
        }
    }

    /// The instant the clock started at.
    let start: ContinuousClock.Instant
    private let state: Mutex<State>

    init() {
        let start = ContinuousClock.now
        self.start = start
        state = Mutex(State(now: start))
    }

    var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// The instants the scheduled timers fire at, earliest first.
    var scheduled: [ContinuousClock.Instant] { state.withLock { $0.scheduled.values.sorted() } }

    /// The instants the sleeping tasks wait for, earliest first.
    var sleeping: [ContinuousClock.Instant] { state.withLock { $0.sleepers.values.map(\.instant).sorted() } }

    /// Moves the clock on by `duration`; before returning, runs the timers and wakes the
    /// sleepers whose instant it reached.
    func advance(by duration: Duration) {
        let (actions, sleepers) = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.scheduled.filter { $0.value <= now }.map(\.key)
            for id in due { state.scheduled[id] = nil }
            let woken = state.sleepers.filter { $0.value.instant <= now }
            for id in woken.keys { state.sleepers[id] = nil }
            return (due.compactMap { state.actions[$0] }, woken.values.map(\.continuation))
        }
        for action in actions { action() }
        for sleeper in sleepers { sleeper.resume() }
    }

    /// Returns once `count` tasks are sleeping on the clock (an event, not a poll), or once the
    /// waiting task is cancelled (by a watchdog).
    func waitForSleepers(_ count: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    guard state.sleepers.count < count, !Task.isCancelled else { return true }
                    state.waiters.append((count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters.map(\.continuation)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(instant: deadline, continuation: continuation)
                    return (nil, state.readyWaiters())
                }
                if let result = outcome.0 { continuation.resume(with: result) }
                for waiter in outcome.1 { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    func makeTimer(_ fire: @escaping @Sendable () -> Void) -> any GeminiDeadlineTimer {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.actions[state.nextID] = fire
            return state.nextID
        }
        return Timer(clock: self, id: id)
    }

    /// A timer of the clock: its schedule lives in the clock's state.
    private final class Timer: GeminiDeadlineTimer {
        let clock: ManualDeadlineClock
        let id: Int

        init(clock: ManualDeadlineClock, id: Int) {
            self.clock = clock
            self.id = id
        }

        func schedule(at instant: ContinuousClock.Instant) {
            clock.state.withLock { state in
                guard state.actions[id] != nil else { return }
                state.scheduled[id] = instant
            }
        }

        func cancel() {
            clock.state.withLock { state in
                state.actions[id] = nil
                state.scheduled[id] = nil
            }
        }
    }
}
