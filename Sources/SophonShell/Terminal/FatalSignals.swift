import Foundation
import Synchronization

/// The fatal signals (SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL) when another process sends
/// them with `kill`: the Swift runtime's crash reporter catches them, prints a report and
/// returns, expecting the faulting instruction to fault again; a signal that came from
/// outside never does, so the process went on and later exited 0.
///
/// The handler here restores the terminal (``EditorSignals``), then: a signal sent by another
/// process ends this one by that signal (the default action, re-raised); a real fault puts
/// the runtime's handler back and returns, so the fault happens again and is reported as
/// before. Async-signal-safe: `sigaction`, `tcsetattr`, `write`, `raise`.
enum FatalSignals {
    /// The signals handled here.
    static let handled: [Int32] = [SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL]
    /// The actions found before ``install()``, by signal number (the runtime's crash reporter).
    nonisolated(unsafe) private static var previous: [sigaction] = Array(repeating: sigaction(), count: 65)
    private static let installed = Mutex<Bool>(false)

    /// Installs the handler for every signal in ``handled`` (idempotent).
    static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            // Touch the statics the handler reads, so none is first initialised inside it.
            EditorSignals.endEditing()
            EditorSignals.setBracketedPaste(false)
            _ = previous.count
            for signo in handled {
                previous[Int(signo)] = EditorSignals.set(signo, handler)
            }
        }
    }

    private static let handler:
        @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?)
            -> Void = { signo, info, _ in
                EditorSignals.restoreTerminal()
                let code = info?.pointee.si_code ?? 0
                // si_code <= 0: sent by kill, tkill or sigqueue, not by a fault of this process.
                if code <= 0 {
                    EditorSignals.raiseWithDefaultAction(signo)
                    return
                }
                sigaction(signo, &FatalSignals.previous[Int(signo)], nil)
            }
}
