import Foundation
import Synchronization
import Testing

/// How many tests that start children (`sophon`, the fake server, other programs) run at once:
/// as many as the machine has cores (at least 2). Their waits are async (``OffPool``), so
/// nothing bounded them any more: every such test started at once, with its fake server,
/// and the children of hundreds of tests shared two cores. A test waits for a slot suspended,
/// holding no thread. Applied to a suite as `@Suite(.childSlots)`; test support only.
public struct ChildSlots: SuiteTrait, TestTrait, TestScoping {
    /// A suite's trait reaches every test in it.
    public var isRecursive: Bool { true }

    /// The slots every test shares.
    static let shared = Slots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs one test case in a slot (a suite as a whole takes none).
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        await Self.shared.take()
        defer { Self.shared.give() }
        try await function()
    }

    /// A counting semaphore whose waiters are suspended tasks, in order of arrival.
    final class Slots: Sendable {
        private struct State {
            var free: Int
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let state: Mutex<State>

        init(count: Int) { state = Mutex(State(free: count)) }

        /// Returns once a slot is free, and takes it.
        func take() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    guard state.free > 0 else {
                        state.waiting.append(waiter)
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if now { waiter.resume() }
            }
        }

        /// Gives a slot back: to the first waiter, if any.
        func give() {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.free += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
    }
}

extension Trait where Self == ChildSlots {
    /// Runs each test of the suite in one of ``ChildSlots``' slots.
    public static var childSlots: Self { ChildSlots() }
}
