import CSpawn
import Dispatch
import Foundation
import SophonCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process spoken to in lines over its standard streams: a plugin
/// (docs/plugin-protocol.md) or an MCP server (docs/mcp.md). The protocol on top (ids,
/// timeouts, faults) belongs to the connection that owns it.
///
/// Lines go to the child's stdin from a serial queue, so a child that stops reading blocks that
/// queue, never the shell. A write to a child that died fails with `EPIPE` (SIGPIPE is ignored
/// for the whole shell) and is dropped: the end of its output reports it. Its stdout and stderr
/// are read on a ``PluginOutputReader`` thread from ``start(threadName:onEvent:onErrorLine:)``
/// on. Releasing the last reference kills the process. It is started by ``ChildSpawner``, so
/// it dies with the shell, however the shell ends.
final class ChildProcess: Sendable {
    /// Why the process could not start, in words for the owner's fault (`not found`, ...).
    struct StartFailure: Error {
        /// From ``PluginDiscovery/startFailureReason(path:errorNumber:)``.
        var reason: String
    }

    private struct State {
        var end: PluginProcessEnd?
        var inputClosed = false
    }

    /// What the writer queue and the thread waiting for the child share.
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
    ///   - onExit: called with the process id once it has ended (``end`` is set by then), on the
    ///     thread that waits for it.
    /// - Throws: ``StartFailure`` when the process cannot start.
    init(
        executable: String, arguments: [String], environment: [String: String], writerLabel: String,
        onExit: (@Sendable (Int32) -> Void)? = nil
    ) throws(StartFailure) {
        Self.ignoreBrokenPipes
        writer = DispatchQueue(label: writerLabel)
        var pipes: [Int32] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard sophon_pipe_cloexec(&ends) == 0 else {
                pipes.forEach { close($0) }
                throw StartFailure(
                    reason: PluginDiscovery.startFailureReason(path: executable, errorNumber: errno))
            }
            pipes += ends
        }
        // Ours: the write end of stdin, the read ends of stdout and stderr (all close-on-exec,
        // so a child started later does not inherit them). The child's: the other three.
        let (childInput, ownInput) = (pipes[0], pipes[1])
        let (ownOutput, childOutput) = (pipes[2], pipes[3])
        let (ownErrors, childErrors) = (pipes[4], pipes[5])
        defer { [childInput, childOutput, childErrors].forEach { close($0) } }
        do {
            pid = try ChildSpawner.shared.spawn(
                executable, arguments: arguments, environment: environment, stdin: childInput,
                stdout: childOutput, stderr: childErrors)
        } catch {
            [ownInput, ownOutput, ownErrors].forEach { close($0) }
            throw StartFailure(
                reason: PluginDiscovery.startFailureReason(path: executable, errorNumber: error.errorNumber))
        }
        input = ownInput
        output = ownOutput
        errors = ownErrors
        let (box, child) = (shared, pid)
        let waiter = Thread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            let signal = status & 0x7F
            let end: PluginProcessEnd = signal != 0 ? .signal(signal) : .status((status >> 8) & 0xFF)
            box.state.withLock { $0.end = end }
            onExit?(child)
            box.exited.signal()
        }
        waiter.name = "sophon.child.\(pid)"
        waiter.start()
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
            // A failure means the child is gone; its end of output reports it.
            try? FileDescriptorWriter.writeAll(descriptor, line)
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

    /// Kills the process and the processes it started (its process group) at once (SIGKILL)
    /// unless it has ended, and closes stdin.
    func kill() {
        if end == nil { _ = Foundation.kill(-pid, SIGKILL) }
        closeInput()
    }

    /// Waits until the process has ended, at most `seconds`, and returns how it ended (`nil`
    /// when it still runs). For the reader's ``PluginOutputReader/Event/end``: stdout can close
    /// a moment before the exit is reaped. Call once.
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

/// Starts the shell's long-lived children (plugins, MCP servers) so that none outlives the
/// shell, even one killed with SIGKILL (issue 25 point 12).
///
/// Each child asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG` on Linux,
/// in `CSpawn`). The kernel takes "parent" to mean the thread that forked it, so every child
/// is forked from the one thread here, which lives as long as the process: a child started
/// from a pool thread would be killed when that idle thread ended. The child starts with no
/// signal blocked and every signal at its default action (commands run on pool threads, which
/// block most signals; the shell ignores SIGPIPE), and with only its three streams open.
final class ChildSpawner: Sendable {
    /// The one spawner of this process, its thread started on first use.
    static let shared = ChildSpawner()

    /// A fork or exec that failed, with its errno.
    struct Failure: Error {
        var errorNumber: Int32
    }

    private let work = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                let next = work.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                next?()
            }
        }
        thread.name = "sophon.spawner"
        thread.start()
    }

    /// Starts `executable` with `arguments` and exactly `environment`, its stdin, stdout and
    /// stderr the given descriptors (which stay open here; the caller closes them).
    /// - Returns: the child's process id.
    /// - Throws: ``Failure`` with the errno of the fork or exec.
    func spawn(
        _ executable: String, arguments: [String], environment: [String: String],
        stdin: Int32, stdout: Int32, stderr: Int32
    ) throws(Failure) -> Int32 {
        let outcome = Mutex<Result<Int32, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        work.withLock {
            $0.append {
                let result = Self.fork(executable, argv, envp, stdin, stdout, stderr)
                outcome.withLock { $0 = result }
                done.signal()
            }
        }
        ready.signal()
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw Failure(errorNumber: EINVAL) }
        return try result.get()
    }

    /// Runs `sophon_spawn` with C copies of the strings (freed after the fork).
    private static func fork(
        _ path: String, _ argv: [String], _ envp: [String], _ stdin: Int32, _ stdout: Int32, _ stderr: Int32
    ) -> Result<Int32, Failure> {
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvp = envp.map { strdup($0) } + [nil]
        defer { (cArgv + cEnvp).forEach { free($0) } }
        var errorNumber: Int32 = 0
        let pid = sophon_spawn(path, cArgv, cEnvp, stdin, stdout, stderr, &errorNumber)
        return pid > 0 ? .success(pid) : .failure(Failure(errorNumber: errorNumber))
    }
}
