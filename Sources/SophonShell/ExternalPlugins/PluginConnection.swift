import Dispatch
import Foundation
import SophonCore
import Synchronization

/// One running plugin process and the requests in flight to it (docs/plugin-protocol.md).
///
/// Requests go out as JSON lines on the plugin's stdin from a serial queue (a plugin that
/// stops reading blocks that queue, never the shell); replies come back through a
/// ``PluginOutputReader`` thread. Each request waits at most its timeout: then the process is
/// killed (SIGKILL) and the request fails. Cancelling the waiting task (Ctrl-C) sends a
/// `cancel` message and waits a short grace for the answer before killing the process.
/// After any fault the connection is unusable (``isUsable``) and the host starts a new one on
/// next use.
final class PluginConnection: Sendable {
    /// What a request is for, in messages.
    enum Purpose: Sendable, Equatable {
        /// The handshake.
        case handshake
        /// A call of the named command.
        case command(String)

        /// `during the handshake` / `while running 'csv'`.
        var during: String {
            switch self {
            case .handshake: "during the handshake"
            case .command(let name): "while running '\(name)'"
            }
        }

        /// `the handshake` / `'csv'`.
        var what: String {
            switch self {
            case .handshake: "the handshake"
            case .command(let name): "'\(name)'"
            }
        }
    }

    private struct Pending {
        var id: Int
        var purpose: Purpose
        var continuation: CheckedContinuation<PluginProtocol.Reply, any Error>
        var cancelled = false
    }

    /// What the reader thread, the writer queue and Foundation's termination handler share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let exited = DispatchSemaphore(value: 0)
    }

    private struct State {
        var nextID = 1
        var pending: Pending?
        var cancelledEarly: Set<Int> = []
        var end: PluginProcessEnd?
        var unusable = false
        var inputClosed = false
    }

    /// The plugin's name, for messages and stderr prefixes.
    let name: String
    /// The executable's path.
    let path: String
    private let pid: Int32
    private let input: Int32
    private let writer: DispatchQueue
    private let shared = Shared()
    private let stderrSink: any ShellTextSink

    /// Starts `path` with pipes for stdin, stdout and stderr. Each stderr line is written to
    /// `stderr` as `NAME: line`.
    /// - Throws: ``PluginFault/startFailed(plugin:reason:)`` when the process cannot start.
    init(name: String, path: String, environment: [String: String], stderr: any ShellTextSink)
        throws(PluginFault)
    {
        Self.ignoreBrokenPipes
        self.name = name
        self.path = path
        stderrSink = stderr
        writer = DispatchQueue(label: "sophon.plugin.\(name).stdin")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = []
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
            box.exited.signal()
        }
        do {
            try ChildProcessLauncher.run(process)
        } catch {
            throw .startFailed(
                plugin: name, reason: PluginDiscovery.startFailureReason(path: path, error: error))
        }
        pid = process.processIdentifier
        // Our own close-on-exec copies: a plugin started later must not inherit this one's
        // pipe ends (it would keep this plugin's stdin open after we close it).
        input = fcntl(inputPipe.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let output = fcntl(outputPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let errors = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        for handle in [
            inputPipe.fileHandleForWriting, inputPipe.fileHandleForReading, outputPipe.fileHandleForReading,
            outputPipe.fileHandleForWriting, errorPipe.fileHandleForReading, errorPipe.fileHandleForWriting,
        ] {
            try? handle.close()  // Foundation may have closed the child's ends already.
        }
        let prefix = name + ": "
        let sink = stderr
        let reader = PluginOutputReader(
            stdout: output, stderr: errors,
            onEvent: { [weak self] event in self?.handle(event) },
            onErrorLine: { line in sink.write(prefix + line + "\n") })
        reader.start(name: name)
    }

    deinit {
        kill()
    }

    /// Whether requests can still be sent (no fault, not stopped, not exited).
    var isUsable: Bool { shared.state.withLock { !$0.unusable && $0.end == nil } }

    /// Sends the request `make(id)` and waits for the reply with that id.
    /// - Parameters:
    ///   - make: builds the message from its id.
    ///   - purpose: for messages.
    ///   - timeout: how long the reply may take; then the process is killed.
    ///   - cancelGrace: after a cancel, how long the plugin may take to answer it.
    /// - Returns: the reply (type `hello`, `result` or `error`).
    /// - Throws: a ``PluginFault`` (exited, garbage, unknown id, timed out), or
    ///   `CancellationError` when the task was cancelled.
    func request(
        _ make: (Int) -> JSONValue, purpose: Purpose, timeout: Duration, cancelGrace: Duration
    ) async throws -> PluginProtocol.Reply {
        let id: Int? = shared.state.withLock { state in
            guard !state.unusable, state.end == nil else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { throw exitFault(purpose, end: shared.state.withLock { $0.end }) }
        let line = make(id).compactText + "\n"
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<Void, any Error>? = shared.state.withLock { state in
                    if state.unusable || state.end != nil {
                        return .failure(exitFault(purpose, end: state.end))
                    }
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    state.pending = Pending(id: id, purpose: purpose, continuation: continuation)
                    return nil
                }
                if case .failure(let error) = outcome {
                    continuation.resume(throwing: error)
                    return
                }
                send(line)
                let fault = PluginFault.timedOut(
                    plugin: name, during: purpose.what, after: DurationParser.format(timeout))
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeout.milliseconds)) {
                    [weak self] in
                    self?.abandon(id, with: fault)
                }
            }
        } onCancel: {
            cancel(id, grace: cancelGrace)
        }
    }

    /// Closes the plugin's stdin (a plugin exits at end of input) and kills it one second
    /// later if it is still running. No request may be waiting.
    func stop() {
        shared.state.withLock { $0.unusable = true }
        closeInput()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in kill() }
    }

    /// Kills the process at once (SIGKILL) and marks the connection unusable.
    func kill() {
        let running = shared.state.withLock { state in
            state.unusable = true
            return state.end == nil
        }
        if running { _ = Foundation.kill(pid, SIGKILL) }
        closeInput()
    }

    // MARK: - Internals

    private static let ignoreBrokenPipes: Void = {
        // A plugin that died leaves a pipe with no reader: writing to it must fail with
        // EPIPE (handled), not kill the shell with SIGPIPE.
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    private func send(_ line: String) {
        let descriptor = input
        let box = shared
        writer.async {
            guard !box.state.withLock({ $0.inputClosed }) else { return }
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes {
                    Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // The plugin is gone; its end of output reports it.
                }
            }
            bytes.removeAll()
        }
    }

    private func closeInput() {
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

    private func cancel(_ id: Int, grace: Duration) {
        let waiting = shared.state.withLock { state in
            guard var pending = state.pending, pending.id == id else {
                state.cancelledEarly.insert(id)
                return false
            }
            pending.cancelled = true
            state.pending = pending
            return true
        }
        guard waiting else { return }
        send(PluginProtocol.cancel(id: id).compactText + "\n")
        let sink = stderrSink
        let message =
            "plugin '\(name)' did not answer the cancel within \(DurationParser.format(grace)); it was stopped"
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(grace.milliseconds)) {
            [weak self] in
            guard let self, let pending = self.takePending(id) else { return }
            sink.write("warning: \(message)\n")
            self.kill()
            pending.continuation.resume(throwing: CancellationError())
        }
    }

    /// Removes the waiting request `id` (if it is the one waiting) and resumes it with a
    /// cancellation when it was cancelled, else with `fault`, killing the process.
    private func abandon(_ id: Int, with fault: PluginFault) {
        guard let pending = takePending(id) else { return }
        kill()
        pending.continuation.resume(throwing: pending.cancelled ? CancellationError() : fault)
    }

    /// Takes the waiting request if its id is `id`; the connection becomes unusable.
    private func takePending(_ id: Int) -> Pending? {
        shared.state.withLock { state in
            guard let pending = state.pending, pending.id == id else { return nil }
            state.pending = nil
            state.unusable = true
            return pending
        }
    }

    private func handle(_ event: PluginOutputReader.Event) {
        switch event {
        case .line(let line):
            guard shared.state.withLock({ !$0.unusable || $0.pending != nil }) else { return }
            let reply: PluginProtocol.Reply
            do {
                reply = try PluginProtocol.reply(from: line, plugin: name)
            } catch {
                fail(error)
                return
            }
            let pending: Pending? = shared.state.withLock { state in
                guard let pending = state.pending, pending.id == reply.id else { return nil }
                state.pending = nil
                return pending
            }
            if let pending {
                if pending.cancelled {
                    pending.continuation.resume(throwing: CancellationError())
                } else {
                    pending.continuation.resume(returning: reply)
                }
            } else {
                let expected = shared.state.withLock { $0.pending?.id }
                fail(.unknownID(plugin: name, received: String(reply.id), expected: expected))
            }
        case .lineTooLong:
            fail(
                .badMessage(
                    plugin: name, reason: "a line longer than \(PluginProtocol.maximumLineBytes) bytes"))
        case .end:
            _ = shared.exited.wait(timeout: .now() + 2)
            let (pending, end) = shared.state.withLock { state in
                defer {
                    state.pending = nil
                    state.unusable = true
                }
                return (state.pending, state.end)
            }
            if end == nil { kill() }
            if let pending {
                pending.continuation.resume(
                    throwing: pending.cancelled ? CancellationError() : exitFault(pending.purpose, end: end))
            }
        }
    }

    /// A protocol fault: kills the plugin and fails the waiting request, or (none waiting)
    /// reports the fault on stderr.
    private func fail(_ fault: PluginFault) {
        let pending = shared.state.withLock { state in
            defer {
                state.pending = nil
                state.unusable = true
            }
            return state.pending
        }
        kill()
        if let pending {
            pending.continuation.resume(throwing: pending.cancelled ? CancellationError() : fault)
        } else {
            stderrSink.write("warning: \(fault.message)\n")
        }
    }

    private func exitFault(_ purpose: Purpose, end: PluginProcessEnd?) -> PluginFault {
        .exited(plugin: name, end: end, during: purpose.during)
    }
}

extension Duration {
    /// Whole milliseconds, at least 1, at most a day (for dispatch deadlines).
    fileprivate var milliseconds: Int {
        let value = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return Int(min(max(value, 1), 86_400_000))
    }
}
