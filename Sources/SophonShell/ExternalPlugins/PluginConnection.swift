import Dispatch
import Foundation
import SophonCore
import Synchronization

/// One running plugin process and the requests in flight to it (docs/plugin-protocol.md).
///
/// Requests go out as JSON lines on the stdin of a ``ChildProcess`` and replies come back
/// from its stdout. Each request waits at most its timeout: then the process is killed
/// (SIGKILL) and the request fails. Cancelling the waiting task (Ctrl-C) sends a `cancel`
/// message and waits a short grace for the answer before killing the process.
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

    private struct State {
        var nextID = 1
        var pending: Pending?
        var cancelledEarly: Set<Int> = []
        var unusable = false
    }

    /// The plugin's name, for messages and stderr prefixes.
    let name: String
    /// The executable's path.
    let path: String
    private let process: ChildProcess
    private let state = Mutex(State())
    private let stderrSink: any ShellTextSink

    /// Starts `path` with pipes for stdin, stdout and stderr. Each stderr line is written to
    /// `stderr` as `NAME: line`.
    /// - Throws: ``PluginFault/startFailed(plugin:reason:)`` when the process cannot start.
    init(name: String, path: String, environment: [String: String], stderr: any ShellTextSink)
        throws(PluginFault)
    {
        self.name = name
        self.path = path
        stderrSink = stderr
        do {
            process = try ChildProcess(
                executable: path, arguments: [], environment: environment,
                writerLabel: "sophon.plugin.\(name).stdin")
        } catch {
            throw .startFailed(plugin: name, reason: error.reason)
        }
        let prefix = name + ": "
        let sink = stderr
        process.start(
            threadName: name, onEvent: { [weak self] event in self?.handle(event) },
            onErrorLine: { line in sink.write(prefix + line + "\n") })
    }

    /// Whether requests can still be sent (no fault, not stopped, not exited).
    var isUsable: Bool { !state.withLock { $0.unusable } && process.end == nil }

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
        let id: Int? = state.withLock { state in
            guard !state.unusable, process.end == nil else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { throw exitFault(purpose, end: process.end) }
        let line = make(id).compactText + "\n"
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    let end = process.end
                    if state.unusable || end != nil {
                        return .failure(exitFault(purpose, end: end))
                    }
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    state.pending = Pending(id: id, purpose: purpose, continuation: continuation)
                    return nil
                }
                if case .failure(let error) = outcome {
                    continuation.resume(throwing: error)
                    return
                }
                process.send(line)
                let fault = PluginFault.timedOut(
                    plugin: name, during: purpose.what, after: DurationParser.format(timeout))
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .milliseconds(timeout.deadlineMilliseconds)
                ) {
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
        state.withLock { $0.unusable = true }
        process.stop()
    }

    /// Kills the process at once (SIGKILL) and marks the connection unusable.
    func kill() {
        state.withLock { $0.unusable = true }
        process.kill()
    }

    // MARK: - Internals

    private func cancel(_ id: Int, grace: Duration) {
        let waiting = state.withLock { state in
            guard var pending = state.pending, pending.id == id else {
                state.cancelledEarly.insert(id)
                return false
            }
            pending.cancelled = true
            state.pending = pending
            return true
        }
        guard waiting else { return }
        process.send(PluginProtocol.cancel(id: id).compactText + "\n")
        let sink = stderrSink
        let message =
            "plugin '\(name)' did not answer the cancel within \(DurationParser.format(grace)); it was stopped"
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(grace.deadlineMilliseconds)) {
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
        state.withLock { state in
            guard let pending = state.pending, pending.id == id else { return nil }
            state.pending = nil
            state.unusable = true
            return pending
        }
    }

    private func handle(_ event: PluginOutputReader.Event) {
        switch event {
        case .line(let line):
            guard state.withLock({ !$0.unusable || $0.pending != nil }) else { return }
            let reply: PluginProtocol.Reply
            do {
                reply = try PluginProtocol.reply(from: line, plugin: name)
            } catch {
                fail(error)
                return
            }
            let pending: Pending? = state.withLock { state in
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
                let expected = state.withLock { $0.pending?.id }
                fail(.unknownID(plugin: name, received: String(reply.id), expected: expected))
            }
        case .lineTooLong:
            fail(
                .badMessage(
                    plugin: name, reason: "a line longer than \(PluginProtocol.maximumLineBytes) bytes"))
        case .end:
            let end = process.waitForEnd(seconds: 2)
            let pending = state.withLock { state in
                defer {
                    state.pending = nil
                    state.unusable = true
                }
                return state.pending
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
        let pending = state.withLock { state in
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
    /// Whole milliseconds, at least 1, at most a day: a dispatch deadline's (plugin and MCP
    /// timeouts).
    var deadlineMilliseconds: Int {
        min(max(wholeMilliseconds, 1), 86_400_000)
    }
}
