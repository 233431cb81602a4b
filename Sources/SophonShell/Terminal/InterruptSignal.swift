import Foundation
import Synchronization

/// SIGINT (Ctrl-C) for the whole process: one handler, one flag, one wake-up pipe.
///
/// Signal handlers are process-wide and a C handler cannot capture context, so the state
/// lives here, in statics. Interactive runs call ``installInteractiveHandler()``: the
/// handler only sets ``isPending`` and writes one byte to a non-blocking pipe
/// (async-signal-safe). Whoever waits for input or runs a command polls ``wakeDescriptor``
/// as well, so Ctrl-C wakes it whichever thread the kernel delivered the signal to — a
/// plain `read(2)` is interrupted only on the thread that took the signal. The handler is
/// installed without `SA_RESTART`.
///
/// Non-interactive runs call ``installExitOnInterrupt(status:)``: SIGINT ends the process
/// with exit status 130 (docs/commands.md).
///
/// Consumers: the line readers while they wait for a line, and ``SignalMonitor`` while a
/// command runs. A command may itself read from the terminal (`key set` reads the key) while
/// the monitor runs: then both wait on the pipe and either may take the Ctrl-C. Whichever
/// does trips the command's latch (``interruptRunningCommand()``), which stays set until the
/// command ends: every read inside the command then returns `.interrupted` at once, and the
/// command's task is cancelled. So a Ctrl-C at any prompt of a command cancels that command,
/// and a later line can never be read as the answer to that prompt.
enum InterruptSignal {
    /// Set by the handler; cleared by whoever handles the interrupt (``takePending()``).
    private static let pending = Atomic<Bool>(false)
    /// The write end of the wake-up pipe, or -1 before installation.
    private static let wakeWrite = Atomic<Int32>(-1)
    /// The read end of the wake-up pipe, or -1 before installation.
    private static let wakeRead = Atomic<Int32>(-1)
    /// Set when the running command was interrupted; cleared when a command starts or ends.
    private static let commandInterrupted = Atomic<Bool>(false)
    /// The ends of the latch pipe: readable (never drained) while ``commandInterrupted``.
    private static let latchWrite = Atomic<Int32>(-1)
    private static let latchRead = Atomic<Int32>(-1)
    /// Serialises installation.
    private static let installation = Mutex<Bool>(false)

    /// The exit status of a non-interactive run stopped by SIGINT (128 + 2).
    static let interruptedExitStatus: Int32 = 130

    /// Installs the interactive SIGINT handler (idempotent). Call once at REPL start,
    /// before any reader is created; the readers call it too.
    static func installInteractiveHandler() {
        installation.withLock { installed in
            if !installed {
                let wake = makeSignalPipe()
                wakeRead.store(wake.read, ordering: .sequentiallyConsistent)
                wakeWrite.store(wake.write, ordering: .sequentiallyConsistent)
                let latch = makeSignalPipe()
                latchRead.store(latch.read, ordering: .sequentiallyConsistent)
                latchWrite.store(latch.write, ordering: .sequentiallyConsistent)
                installed = true
            }
            // Touch every static the handler reads, so none is first initialised inside it.
            _ = pending.load(ordering: .sequentiallyConsistent)
            install(handler: { _ in InterruptSignal.noteInterrupt() })
        }
    }

    /// Makes SIGINT end the process at once with `status` (default 130), for scripts,
    /// `-c` and one-command runs. Output written so far stays (stdout and stderr are
    /// unbuffered file descriptor writes in this shell).
    static func installExitOnInterrupt(status: Int32 = interruptedExitStatus) {
        exitStatus.store(status, ordering: .sequentiallyConsistent)
        install(handler: { _ in
            if let line = InterruptSignal.exitLine.load(ordering: .sequentiallyConsistent) {
                _ = write(STDOUT_FILENO, line, strlen(line.assumingMemoryBound(to: CChar.self)))
            }
            if let note = InterruptSignal.exitNote.load(ordering: .sequentiallyConsistent) {
                _ = write(STDERR_FILENO, note, strlen(note.assumingMemoryBound(to: CChar.self)))
            }
            _exit(InterruptSignal.exitStatus.load(ordering: .relaxed))
        })
    }

    /// What a SIGINT that ends the process writes to stdout first: under `--json`, the running
    /// command's `interrupted` line, so that every command still prints its one object; `nil`
    /// for nothing.
    nonisolated(unsafe) private static let exitLine = Atomic<UnsafeMutableRawPointer?>(nil)
    /// The line replaced before the current one: freed at the next replacement, by when no
    /// handler can still be reading it (a handler writes it and ends the process at once).
    nonisolated(unsafe) private static let retiredExitLine = Atomic<UnsafeMutableRawPointer?>(nil)

    /// Sets the line a SIGINT that ends the process writes to stdout first (the running
    /// command's `--json` object, with its line end), `nil` for none. Called once per command,
    /// so replaced lines are freed (one replacement later), unlike ``setExitNote(_:)``.
    static func setExitLine(_ text: String?) {
        let line = text.flatMap { strdup($0) }.map { UnsafeMutableRawPointer($0) }
        let replaced = exitLine.exchange(line, ordering: .sequentiallyConsistent)
        free(retiredExitLine.exchange(replaced, ordering: .sequentiallyConsistent))
    }

    private static let exitStatus = Atomic<Int32>(interruptedExitStatus)

    /// What a SIGINT that ends the process writes to stderr first (`run`: where the finished
    /// answers are); `nil` for nothing.
    nonisolated(unsafe) private static let exitNote = Atomic<UnsafeMutableRawPointer?>(nil)

    /// Sets the note a SIGINT that ends the process writes to stderr first, `nil` for none.
    /// A replaced note is kept (never freed): the handler may be reading it.
    static func setExitNote(_ text: String?) {
        let note = text.flatMap { strdup($0) }.map { UnsafeMutableRawPointer($0) }
        exitNote.store(note, ordering: .sequentiallyConsistent)
    }

    /// Gives SIGINT back its default action (the process ends); the wake-up pipe stays.
    static func restoreDefaultHandler() {
        signal(SIGINT, SIG_DFL)
    }

    /// Whether a SIGINT arrived since the last ``takePending()``.
    static var isPending: Bool { pending.load(ordering: .sequentiallyConsistent) }

    /// Returns whether a SIGINT arrived, clearing the flag and draining the wake-up pipe.
    static func takePending() -> Bool {
        drainWakePipe()
        return pending.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Forgets a SIGINT that nobody handled (e.g. one pressed between two prompts).
    static func discardPending() { _ = takePending() }

    /// The descriptor that becomes readable when SIGINT arrives, or -1 before
    /// ``installInteractiveHandler()``.
    static var wakeDescriptor: Int32 { wakeRead.load(ordering: .sequentiallyConsistent) }

    /// Clears the latch of the previous command: call when a command starts and ends
    /// (``SignalMonitor/run(_:)`` does).
    static func resetCommandLatch() {
        commandInterrupted.store(false, ordering: .sequentiallyConsistent)
        let descriptor = latchRead.load(ordering: .sequentiallyConsistent)
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Marks the running command as interrupted: every later ``waitForInput(on:)`` until
    /// ``resetCommandLatch()`` returns `.interrupted`, and the current task (when called
    /// from one) is cancelled. Called by ``SignalMonitor`` and by a reader that took a Ctrl-C
    /// during a command's prompt.
    static func interruptRunningCommand() {
        if !commandInterrupted.exchange(true, ordering: .sequentiallyConsistent) {
            writesAtInterrupt.store(
                FileDescriptorSink.writes.load(ordering: .sequentiallyConsistent),
                ordering: .sequentiallyConsistent)
            let descriptor = latchWrite.load(ordering: .sequentiallyConsistent)
            if descriptor >= 0 {
                var byte: UInt8 = 1
                _ = write(descriptor, &byte, 1)
            }
        }
        withUnsafeCurrentTask { $0?.cancel() }
    }

    /// Whether the running command was interrupted (see ``interruptRunningCommand()``).
    static var isCommandInterrupted: Bool { commandInterrupted.load(ordering: .sequentiallyConsistent) }

    /// ``FileDescriptorSink/writes`` when the running command was interrupted.
    private static let writesAtInterrupt = Atomic<Int>(0)

    /// Whether the running command was interrupted by a Ctrl-C the terminal echoed as `^C`
    /// (standard input a terminal with `ECHO` and `ECHOCTL`, as a command runs in cooked mode)
    /// and nothing was written since: the cursor then stands after the `^C`, so what reports
    /// the interruption starts a line of its own first, as shells do (`^C` then the message
    /// below it, never `^Cerror: ...`). Output after the interruption (`run`'s own message)
    /// has started a line already.
    static var leftAnEchoedControlCharacter: Bool {
        guard isCommandInterrupted, isatty(STDIN_FILENO) == 1,
            FileDescriptorSink.writes.load(ordering: .sequentiallyConsistent)
                == writesAtInterrupt.load(ordering: .sequentiallyConsistent)
        else { return false }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        let echoes = tcflag_t(ECHO) | tcflag_t(ECHOCTL)
        return settings.c_lflag & echoes == echoes
    }

    /// What ``waitForInput(on:)`` saw.
    enum InputWait: Equatable {
        /// The descriptor is readable (data, end of file or an error: `read(2)` tells).
        case ready
        /// SIGINT arrived; the flag was cleared.
        case interrupted
    }

    /// Blocks until `descriptor` is readable or SIGINT arrives, whichever comes first.
    /// Before ``installInteractiveHandler()`` it only waits for the descriptor. While the
    /// running command is marked interrupted it returns `.interrupted` at once.
    /// - Parameter descriptor: the input to wait for (e.g. `STDIN_FILENO`).
    /// - Returns: `.interrupted` (flag cleared, pipe drained) or `.ready`.
    static func waitForInput(on descriptor: Int32) -> InputWait {
        let wake = wakeDescriptor
        let latch = latchRead.load(ordering: .sequentiallyConsistent)
        while true {
            if isCommandInterrupted { return .interrupted }
            if isPending {
                _ = takePending()
                return .interrupted
            }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                pollfd(fd: latch, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&descriptors, wake >= 0 ? (latch >= 0 ? 3 : 2) : 1, -1)
            if count < 0 {
                if errno == EINTR { continue }
                return .ready  // Let the read itself report the error.
            }
            if wake >= 0, descriptors[1].revents != 0 {
                drainWakePipe()
                continue  // The flag is checked at the top of the loop.
            }
            if latch >= 0, wake >= 0, descriptors[2].revents != 0 { continue }  // Checked at the top.
            if descriptors[0].revents != 0 { return .ready }
        }
    }

    /// Simulates Ctrl-C for tests: does exactly what the handler does.
    static func simulateInterrupt() { noteInterrupt() }

    /// The handler's body: async-signal-safe (an atomic store and one `write(2)`).
    private static func noteInterrupt() {
        let savedErrno = errno
        pending.store(true, ordering: .sequentiallyConsistent)
        let descriptor = wakeWrite.load(ordering: .sequentiallyConsistent)
        if descriptor >= 0 {
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
        errno = savedErrno
    }

    /// A close-on-exec, non-blocking pipe (the handler's writes never block): read and write
    /// end, or `(-1, -1)` when none can be made (then Ctrl-C is still latched by `pending`).
    private static func makeSignalPipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for descriptor in ends {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    private static func drainWakePipe() {
        let descriptor = wakeRead.load(ordering: .sequentiallyConsistent)
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    private static func install(handler: @convention(c) (Int32) -> Void) {
        EditorSignals.set(SIGINT, handler, restart: false)  // No SA_RESTART: a blocked read returns EINTR.
        // A parent that blocks SIGINT (a test runner, some supervisors) passes its mask on:
        // unblock it, or Ctrl-C would never reach the handler.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}
