import Dispatch
import Foundation
import Synchronization

/// While a command runs in an interactive session, turns each Ctrl-C into a callback (the
/// REPL cancels the command's `Task` there), on a small thread of its own that waits on
/// ``InterruptSignal``'s wake-up pipe.
///
/// Usage: ``run(_:)`` does it all; or create a monitor, run the command, then ``stop()``.
/// Requires ``InterruptSignal/installInteractiveHandler()``. A line reader must not be
/// waiting for input while a monitor runs (both consume the same pipe).
final class SignalMonitor: Sendable {
    private let stopRead: Int32
    private let stopWrite: Int32
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching: every SIGINT from now until ``stop()`` calls `onInterrupt` once,
    /// on the monitor's thread. A SIGINT still pending (not taken by anyone) is handled at
    /// once, so one that arrives while the command starts is not lost.
    /// - Parameter onInterrupt: what to do on Ctrl-C; must be quick (e.g. `task.cancel()`).
    init(onInterrupt: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        }
        stopRead = ends[0]
        stopWrite = ends[1]
        let wake = InterruptSignal.wakeDescriptor
        let stopDescriptor = stopRead
        let done = finished
        let thread = Thread {
            Self.watch(wake: wake, stop: stopDescriptor, onInterrupt: onInterrupt)
            done.signal()
        }
        thread.name = "sophon-sigint"
        thread.start()
    }

    /// Stops watching and waits (briefly) for the thread to end. Idempotent. Called from
    /// `deinit` too, so a dropped monitor stops.
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        if stopWrite >= 0, write(stopWrite, &byte, 1) == 1 {
            finished.wait()
        }
        if stopRead >= 0 { close(stopRead) }
        if stopWrite >= 0 { close(stopWrite) }
    }

    deinit { stop() }

    /// Runs `operation` as a new task and cancels that task on Ctrl-C. A Ctrl-C pressed
    /// before the call (e.g. between two prompts) is discarded first.
    /// - Parameter operation: the command; it should honour cancellation (`Task.sleep`,
    ///   URLSession and `Task.checkCancellation()` do). It runs in its own task, on its
    ///   isolation (a closure formed on the main actor runs there).
    /// - Returns: what the operation returns.
    /// - Throws: what the operation throws; after Ctrl-C that is usually `CancellationError`
    ///   (or a `URLError.cancelled`), which the REPL reports as an interruption.
    static func run<T: Sendable>(_ operation: @escaping @Sendable @isolated(any) () async throws -> T)
        async throws -> T
    {
        InterruptSignal.discardPending()
        InterruptSignal.resetCommandLatch()
        let task = Task(operation: operation)
        let monitor = SignalMonitor {
            InterruptSignal.interruptRunningCommand()
            task.cancel()
        }
        defer {
            monitor.stop()
            InterruptSignal.resetCommandLatch()
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private static func watch(wake: Int32, stop: Int32, onInterrupt: @Sendable () -> Void) {
        while true {
            var descriptors = [
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&descriptors, 2, -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0, InterruptSignal.takePending() {
                onInterrupt()
            }
        }
    }
}
