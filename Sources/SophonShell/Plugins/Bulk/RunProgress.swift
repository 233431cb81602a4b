import Foundation
import Synchronization

/// The progress line of `run` on a terminal (stderr): done/total, rate, ETA and failures,
/// redrawn in place at most ten times a second (docs/running-many-prompts.md). Silent when
/// stderr is not a terminal.
final class RunProgress: Sendable {
    private struct State {
        var done: Int
        var failed = 0
        var askedNow = 0
        var lastDrawn: ContinuousClock.Instant?
    }

    private let total: Int
    private let started = ContinuousClock.now
    private let io: ShellIO
    private let isTerminal = Terminal.isTerminal(STDERR_FILENO)
    private let state: Mutex<State>

    /// Starts counting; `alreadyDone` keys were answered by an earlier run.
    init(total: Int, alreadyDone: Int, io: ShellIO) {
        self.total = total
        self.io = io
        state = Mutex(State(done: alreadyDone))
    }

    /// One more key answered.
    func finished(ok: Bool) {
        guard
            let line = state.withLock({ state -> String? in
                state.done += 1
                state.askedNow += 1
                if !ok { state.failed += 1 }
                guard isTerminal else { return nil }
                let now = ContinuousClock.now
                if let last = state.lastDrawn, now - last < .milliseconds(100), state.done < total {
                    return nil
                }
                state.lastDrawn = now
                return self.line(state)
            })
        else { return }
        io.stderr.write("\r\u{1B}[K" + line)
    }

    /// Ends the progress line (a terminal only).
    func end() {
        guard isTerminal else { return }
        let line = state.withLock { state -> String in self.line(state) }
        io.stderr.write("\r\u{1B}[K" + line + "\n")
    }

    private func line(_ state: State) -> String {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(state.askedNow) / seconds : 0
        return BulkMessages.progress(done: state.done, total: total, rate: rate, failed: state.failed)
    }
}
