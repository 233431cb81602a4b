import CEdit
import Foundation
import Synchronization

/// The signals that matter while the line editor owns the terminal, handled by the shell
/// itself instead of by libedit.
///
/// libedit's own signal handling (`EL_SIGNAL`) restores the terminal and then re-sends each
/// signal with `kill(0, signo)`, that is to the whole process group: a SIGTERM or SIGHUP
/// sent to `sophon` at the prompt also reached the shell or script that started it. The
/// shell turns `EL_SIGNAL` off and installs these handlers instead (docs/language.md, "The
/// REPL"), which act on this process only:
///
/// - SIGTERM, SIGHUP: while a line is being edited, put the terminal back as it was before
///   the edit; turn bracketed paste off when it is on; then the default action (the process
///   ends with the signal, as the sender expects).
/// - SIGTSTP (Ctrl-Z): the same restoring, then the process stops; when it continues, the
///   editing mode and bracketed paste come back.
/// - SIGWINCH: noted; the editor reads the new width before its next character
///   (``takeResize()``).
///
/// SIGINT is ``InterruptSignal``'s. The handlers only use async-signal-safe calls
/// (`tcgetattr`, `tcsetattr`, `write`, `sigaction`, `pthread_sigmask`, `raise`).
enum EditorSignals {
    /// The terminal settings found before the current edit (the ones to restore).
    nonisolated(unsafe) private static var foundSettings = termios()
    /// The terminal's input descriptor (for `tcsetattr`), or -1 before ``install(input:output:)``.
    private static let input = Atomic<Int32>(-1)
    /// Where the bracketed-paste sequences are written, or -1.
    private static let output = Atomic<Int32>(-1)
    /// Whether a line is being edited (the terminal is in the editor's mode).
    private static let editing = Atomic<Bool>(false)
    /// Whether bracketed paste is on (``setBracketedPaste(_:)``).
    private static let pasteMode = Atomic<Bool>(false)
    /// Set by SIGWINCH, cleared by ``takeResize()``.
    private static let resized = Atomic<Bool>(false)
    private static let installation = Mutex<Bool>(false)

    /// The sequence that turns bracketed paste on (xterm's private mode 2004).
    static let pasteOnSequence: StaticString = "\u{1B}[?2004h"
    /// The sequence that turns bracketed paste off.
    static let pasteOffSequence: StaticString = "\u{1B}[?2004l"

    /// Installs the handlers (idempotent; the descriptors of the last call win).
    /// - Parameters:
    ///   - input: the terminal's input descriptor (its settings are saved and restored).
    ///   - output: the terminal's output descriptor (bracketed paste is turned off there).
    static func install(input terminalInput: Int32, output terminalOutput: Int32) {
        installation.withLock { installed in
            input.store(terminalInput, ordering: .sequentiallyConsistent)
            output.store(terminalOutput, ordering: .sequentiallyConsistent)
            guard !installed else { return }
            installed = true
            // Touch every static a handler reads, so none is first initialised inside one.
            _ = editing.load(ordering: .sequentiallyConsistent)
            _ = pasteMode.load(ordering: .sequentiallyConsistent)
            _ = resized.load(ordering: .sequentiallyConsistent)
            _ = foundSettings
            set(SIGTERM, endHandler, restart: false)
            set(SIGHUP, endHandler, restart: false)
            set(SIGTSTP, stopHandler, restart: true)
            set(SIGWINCH, resizeHandler, restart: true)
        }
    }

    /// Call just before the editor reads a line: saves the terminal settings to restore.
    static func beginEditing() {
        let descriptor = input.load(ordering: .sequentiallyConsistent)
        var settings = termios()
        if tcgetattr(descriptor, &settings) == 0 { foundSettings = settings }
        editing.store(true, ordering: .sequentiallyConsistent)
    }

    /// Call when the editor returned (the terminal is back in its normal mode).
    static func endEditing() {
        editing.store(false, ordering: .sequentiallyConsistent)
    }

    /// Turns bracketed paste on or off on the output given to ``install(input:output:)``,
    /// writing the sequence only when the mode changes. It stays on between edits (so the
    /// turning off never lands between a command's echo and its output) and is turned off
    /// before a secret prompt, by the editor's `close()`, at `exit()`, and by the handlers.
    static func setBracketedPaste(_ on: Bool) {
        guard pasteMode.exchange(on, ordering: .sequentiallyConsistent) != on else { return }
        write(on ? pasteOnSequence : pasteOffSequence, to: output.load(ordering: .sequentiallyConsistent))
    }

    /// Whether the terminal changed size since the last call (clears the note).
    static func takeResize() -> Bool {
        resized.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Writes one of the sequences above to `descriptor` (async-signal-safe).
    static func write(_ sequence: StaticString, to descriptor: Int32) {
        guard descriptor >= 0 else { return }
        _ = Foundation.write(descriptor, sequence.utf8Start, sequence.utf8CodeUnitCount)
    }

    // MARK: - Handlers

    /// Restores the terminal found before the edit and turns bracketed paste off, when a
    /// line is being edited. Async-signal-safe.
    static func restoreTerminal() {
        if editing.load(ordering: .sequentiallyConsistent) {
            _ = tcsetattr(input.load(ordering: .sequentiallyConsistent), TCSADRAIN, &foundSettings)
        }
        if pasteMode.load(ordering: .sequentiallyConsistent) {
            write(pasteOffSequence, to: output.load(ordering: .sequentiallyConsistent))
        }
    }

    /// Delivers `signo` again with its default action, to this process only.
    static func raiseWithDefaultAction(_ signo: Int32) {
        signal(signo, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signo)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(signo)
    }

    private static let endHandler: @convention(c) (Int32) -> Void = { signo in
        let savedErrno = errno
        EditorSignals.restoreTerminal()
        EditorSignals.raiseWithDefaultAction(signo)
        errno = savedErrno
    }

    private static let stopHandler: @convention(c) (Int32) -> Void = { signo in
        let savedErrno = errno
        let wasEditing = EditorSignals.editing.load(ordering: .sequentiallyConsistent)
        let withPaste = EditorSignals.pasteMode.load(ordering: .sequentiallyConsistent)
        let descriptor = EditorSignals.input.load(ordering: .sequentiallyConsistent)
        var editorSettings = termios()
        let haveEditorSettings = wasEditing && tcgetattr(descriptor, &editorSettings) == 0
        EditorSignals.restoreTerminal()
        EditorSignals.raiseWithDefaultAction(signo)
        // Stopped here until SIGCONT.
        EditorSignals.set(SIGTSTP, EditorSignals.stopHandler, restart: true)
        if haveEditorSettings, EditorSignals.editing.load(ordering: .sequentiallyConsistent) {
            _ = tcsetattr(descriptor, TCSADRAIN, &editorSettings)
        }
        if withPaste, EditorSignals.pasteMode.load(ordering: .sequentiallyConsistent) {
            EditorSignals.write(
                EditorSignals.pasteOnSequence,
                to: EditorSignals.output.load(ordering: .sequentiallyConsistent))
        }
        errno = savedErrno
    }

    private static let resizeHandler: @convention(c) (Int32) -> Void = { _ in
        EditorSignals.resized.store(true, ordering: .sequentiallyConsistent)
    }

    /// Installs `handler` for `signo` with an empty mask; `restart`: `SA_RESTART` (a blocked
    /// read resumes), else the read returns `EINTR`. ``InterruptSignal`` installs its SIGINT
    /// handler through it too.
    static func set(_ signo: Int32, _ handler: @convention(c) (Int32) -> Void, restart: Bool) {
        var action = sigaction()
        #if os(Linux)
            action.__sigaction_handler.sa_handler = handler
        #else
            action.__sigaction_u.__sa_handler = handler
        #endif
        install(action, for: signo, flags: restart ? Int32(SA_RESTART) : 0)
    }

    /// Installs `handler` for `signo` with `SA_SIGINFO` and an empty mask (the handler learns
    /// who sent the signal; ``FatalSignals`` installs its handler through it).
    /// - Returns: the action found before.
    @discardableResult
    static func set(
        _ signo: Int32,
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void
    ) -> sigaction {
        var action = sigaction()
        #if os(Linux)
            action.__sigaction_handler.sa_sigaction = handler
        #else
            action.__sigaction_u.__sa_sigaction = handler
        #endif
        return install(action, for: signo, flags: Int32(SA_SIGINFO))
    }

    /// `sigaction` with `action`, an empty mask and `flags`; returns the action found before.
    @discardableResult
    private static func install(_ action: sigaction, for signo: Int32, flags: Int32) -> sigaction {
        var action = action
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        var old = sigaction()
        sigaction(signo, &action, &old)
        return old
    }
}

/// Restoring the terminal at `exit()`: editors still alive are ended by an `atexit` handler.
extension EditorSignals {

    /// The editors alive in this process, ended by an `atexit` handler so that `exit()`
    /// from a command (`quit`) also leaves the terminal as it was found.
    private static let liveEditors = Mutex<[UInt]>([])
    private static let exitHandlerInstalled = Atomic<Bool>(false)

    /// Ends `editor` at `exit()` if it is still alive then (the handler is installed once).
    static func registerForExit(_ editor: OpaquePointer) {
        liveEditors.withLock { $0.append(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(editor)))) }
        if !exitHandlerInstalled.exchange(true, ordering: .sequentiallyConsistent) {
            atexit {
                let editors = EditorSignals.liveEditors.withLock { editors in
                    defer { editors.removeAll() }
                    return editors
                }
                for address in editors {
                    if let editor = OpaquePointer(bitPattern: address) { el_end(editor) }
                }
                EditorSignals.setBracketedPaste(false)
            }
        }
    }

    /// Forgets `editor` (it was ended by ``EditLineReader/close()``).
    static func unregisterForExit(_ editor: OpaquePointer) {
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(editor)))
        liveEditors.withLock { $0.removeAll { $0 == address } }
    }
}

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
