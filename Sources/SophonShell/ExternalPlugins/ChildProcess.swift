import Dispatch
import Foundation
import Synchronization

/// A child process spoken to in lines over its standard streams: a plugin
/// (docs/plugin-protocol.md) or an MCP server (docs/mcp.md). The protocol on top (ids,
/// timeouts, faults) belongs to the connection that owns it.
///
/// Lines go to the child's stdin from a serial queue, so a child that stops reading blocks that
/// queue, never the shell. A write to a child that died fails with `EPIPE` (SIGPIPE is ignored
/// for the whole shell) and is dropped: the end of its output reports it. Its stdout and stderr
/// are read on a ``PluginOutputReader`` thread from ``start(threadName:onEvent:onErrorLine:)``
/// on. Releasing the last reference kills the process.
final class ChildProcess: Sendable {
    /// Why the process could not start, in words for the owner's fault (`not found`, ...).
    struct StartFailure: Error {
        /// From ``PluginDiscovery/startFailureReason(path:error:)``.
        var reason: String
    }

    private struct State {
        var end: PluginProcessEnd?
        var inputClosed = false
    }

    /// What the writer queue and Foundation's termination handler share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let exited = DispatchSemaphore(value: 0)
    }

    /// The process id.
    let pid: Int32
    private let input: Int32
    private let output: Int32
    private let errors: Int32
    private let writer: DispatchQueue
    private let shared = Shared()

    /// Starts `executable` with `arguments` and exactly `environment`, with pipes for its three
    /// streams. Nothing is read until ``start(threadName:onEvent:onErrorLine:)``.
    /// - Parameters:
    ///   - writerLabel: the label of the queue that writes to its stdin.
    ///   - onExit: called with the process id once it has ended (``end`` is set by then), on a
    ///     Foundation thread.
    /// - Throws: ``StartFailure`` when the process cannot start.
    init(
        executable: String, arguments: [String], environment: [String: String], writerLabel: String,
        onExit: (@Sendable (Int32) -> Void)? = nil
    ) throws(StartFailure) {
        Self.ignoreBrokenPipes
        writer = DispatchQueue(label: writerLabel)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let box = shared
        process.terminationHandler = { finished in
            let end: PluginProcessEnd =
                finished.terminationReason == .uncaughtSignal
                ? .signal(finished.terminationStatus) : .status(finished.terminationStatus)
            box.state.withLock { $0.end = end }
            onExit?(finished.processIdentifier)
            box.exited.signal()
        }
        do {
            try ChildProcessLauncher.run(process)
        } catch {
            throw StartFailure(reason: PluginDiscovery.startFailureReason(path: executable, error: error))
        }
        pid = process.processIdentifier
        // Our own close-on-exec copies: a child started later must not inherit this one's pipe
        // ends (it would keep this child's stdin open after we close it).
        input = fcntl(inputPipe.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        output = fcntl(outputPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        errors = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        for handle in [
            inputPipe.fileHandleForWriting, inputPipe.fileHandleForReading, outputPipe.fileHandleForReading,
            outputPipe.fileHandleForWriting, errorPipe.fileHandleForReading, errorPipe.fileHandleForWriting,
        ] {
            try? handle.close()  // Foundation may have closed the child's ends already.
        }
    }

    deinit {
        kill()
    }

    /// How the process ended; `nil` while it runs.
    var end: PluginProcessEnd? { shared.state.withLock { $0.end } }

    /// Starts reading stdout and stderr on a thread named after `threadName`; call once. The
    /// reader owns both descriptors from then on.
    /// - Parameters:
    ///   - onEvent: each stdout event, on the reader thread (``PluginOutputReader/Event/end``
    ///     last).
    ///   - onErrorLine: each stderr line (no newline), on the reader thread.
    func start(
        threadName: String, onEvent: @escaping @Sendable (PluginOutputReader.Event) -> Void,
        onErrorLine: @escaping @Sendable (String) -> Void
    ) {
        PluginOutputReader(stdout: output, stderr: errors, onEvent: onEvent, onErrorLine: onErrorLine)
            .start(name: threadName)
    }

    /// Writes `line` (with its newline) to stdin, after the lines sent before it; dropped once
    /// stdin is closed or the child has gone.
    func send(_ line: String) {
        let descriptor = input
        let box = shared
        writer.async {
            guard !box.state.withLock({ $0.inputClosed }) else { return }
            let bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // The child is gone; its end of output reports it.
                }
            }
        }
    }

    /// Closes stdin after the lines already sent (once; later calls do nothing).
    func closeInput() {
        let descriptor = input
        let box = shared
        writer.async {
            let wasClosed = box.state.withLock { state in
                defer { state.inputClosed = true }
                return state.inputClosed
            }
            if !wasClosed { close(descriptor) }
        }
    }

    /// Closes stdin (plugins and MCP servers exit at end of input) and kills the process one
    /// second later if it still runs.
    func stop() {
        closeInput()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in kill() }
    }

    /// Kills the process at once (SIGKILL) unless it has ended, and closes stdin.
    func kill() {
        if end == nil { _ = Foundation.kill(pid, SIGKILL) }
        closeInput()
    }

    /// Waits until the process has ended, at most `seconds`, and returns how it ended (`nil`
    /// when it still runs). For the reader's ``PluginOutputReader/Event/end``: stdout can close
    /// a moment before Foundation reports the exit. Call once.
    func waitForEnd(seconds: Int) -> PluginProcessEnd? {
        _ = shared.exited.wait(timeout: .now() + .seconds(seconds))
        return end
    }

    private static let ignoreBrokenPipes: Void = {
        // A child that died leaves a pipe with no reader: writing to it must fail with EPIPE
        // (handled), not kill the shell with SIGPIPE.
        _ = signal(SIGPIPE, SIG_IGN)
    }()
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the shell's child processes (external plugins, MCP servers, `sophon test` files)
/// with no signal blocked.
///
/// Commands run on the threads of Swift's concurrency pool, which block most signals; a child
/// spawned from one inherits that mask, so a plugin or MCP server would never receive SIGTERM,
/// SIGINT, SIGALRM or SIGHUP (a Python server's `signal.alarm` or a Node server's SIGTERM
/// handler never fired). The mask is cleared on the calling thread just for the spawn: the
/// shell's own signals go through process-wide `sigaction` handlers, so one that arrives on
/// this thread meanwhile is handled as on any other.
enum ChildProcessLauncher {
    /// Runs `process` (`Process.run()`) with an empty signal mask in the child.
    /// - Throws: what `Process.run()` throws.
    static func run(_ process: Process) throws {
        var empty = sigset_t()
        sigemptyset(&empty)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &empty, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }
}
