import Dispatch
import Foundation
import SophonCore
import Synchronization

/// One running MCP server process over stdio (docs/mcp.md): JSON-RPC 2.0 messages, one per line,
/// written to its stdin and read from its stdout.
///
/// Requests go out from a serial queue (a server that stops reading blocks that queue, never
/// the shell); answers come back through a ``PluginOutputReader`` thread and are matched by
/// `id`. The server's stderr is not copied to ours: its last line is kept and named when the
/// server dies. Each request waits at most its timeout: then the process is killed (SIGKILL) and
/// the request fails. A line that is not JSON-RPC kills the process and fails every waiting
/// request. After any fault the connection is unusable (``isUsable``).
final class MCPConnection: Sendable {
    private struct Pending {
        var during: String
        var continuation: CheckedContinuation<JSONValue, any Error>
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        var end: PluginProcessEnd?
        var unusable = false
        var inputClosed = false
        var lastError: String?
        /// Ids of the `ping`s sent after a cancel, not answered yet.
        var probes: Set<Int> = []
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
        let exited = DispatchSemaphore(value: 0)
    }

    /// The server's name, for messages.
    let server: String
    /// The process id.
    let pid: Int32
    private let input: Int32
    private let writer: DispatchQueue
    private let shared = Shared()

    /// Starts `executable` with `arguments` and `environment`, with pipes for its three streams.
    /// - Throws: ``MCPFault/startFailed(server:reason:)``.
    init(server: String, executable: String, arguments: [String], environment: [String: String])
        throws(MCPFault)
    {
        _ = signal(SIGPIPE, SIG_IGN)  // a dead server's pipe fails with EPIPE, never kills us
        self.server = server
        writer = DispatchQueue(label: "sophon.mcp.\(server).stdin")
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
            MCPChildProcesses.shared.remove(finished.processIdentifier)
            box.exited.signal()
        }
        do {
            try ChildProcessLauncher.run(process)
        } catch {
            throw .startFailed(
                server: server, reason: PluginDiscovery.startFailureReason(path: executable, error: error))
        }
        pid = process.processIdentifier
        MCPChildProcesses.shared.add(pid)
        // Close-on-exec copies, so a server started later does not inherit this one's pipes.
        input = fcntl(inputPipe.fileHandleForWriting.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let output = fcntl(outputPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        let errors = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        for handle in [
            inputPipe.fileHandleForWriting, inputPipe.fileHandleForReading, outputPipe.fileHandleForReading,
            outputPipe.fileHandleForWriting, errorPipe.fileHandleForReading, errorPipe.fileHandleForWriting,
        ] {
            try? handle.close()
        }
        let reader = PluginOutputReader(
            stdout: output, stderr: errors,
            onEvent: { [weak self] event in self?.handle(event) },
            onErrorLine: { [box] line in
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
                box.state.withLock { $0.lastError = line }
            })
        reader.start(name: "mcp-" + server)
    }

    deinit { kill() }

    /// Whether requests can still be sent (no fault, not stopped, not exited).
    var isUsable: Bool { shared.state.withLock { !$0.unusable && $0.end == nil } }

    /// Sends request `method` and waits for its answer.
    /// - Parameters:
    ///   - during: what the request is, for messages (`during tools/call 'x'`).
    ///   - timeout: how long the answer may take; then the process is killed.
    /// - Returns: the answer's `result`.
    /// - Throws: ``MCPFault`` (exited, garbage, timed out, a JSON-RPC error), or
    ///   `CancellationError` when the task was cancelled (the server gets
    ///   `notifications/cancelled`).
    func request(method: String, params: JSONValue, during: String, timeout: Duration) async throws
        -> JSONValue
    {
        let id: Int? = shared.state.withLock { state in
            guard !state.unusable, state.end == nil else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { throw exitFault(during) }
        let line = MCPProtocol.request(id: id, method: method, params: params).compactText + "\n"
        let fault = MCPFault.timedOut(server: server, during: during, after: DurationParser.format(timeout))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refused: (any Error)? = shared.state.withLock { state in
                    if state.unusable || state.end != nil { return exitFault(during, state: state) }
                    if Task.isCancelled { return CancellationError() }
                    state.pending[id] = Pending(during: during, continuation: continuation)
                    return nil
                }
                if let refused {
                    continuation.resume(throwing: refused)
                    return
                }
                send(line)
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .milliseconds(Self.milliseconds(timeout))
                ) {
                    [weak self] in
                    guard let self, let pending = self.take(id) else { return }
                    self.kill()
                    pending.continuation.resume(throwing: fault)
                }
            }
        } onCancel: {
            guard let pending = take(id) else { return }
            send(
                MCPProtocol.notification(
                    method: "notifications/cancelled",
                    params: .object([
                        JSONMember("requestId", .integer(id)), JSONMember("reason", .string("interrupted")),
                    ])
                ).compactText + "\n")
            pending.continuation.resume(throwing: CancellationError())
            probeAfterCancel()
        }
    }

    /// After a cancelled request, a `ping`: a server that does not answer it within 2 s is
    /// still stuck in the cancelled call, so it is killed, and starts again on its next call
    /// instead of making that call wait for `tool-timeout` (docs/mcp.md, "Faults").
    private func probeAfterCancel() {
        let id: Int? = shared.state.withLock { state in
            guard !state.unusable, state.end == nil else { return nil }
            defer { state.nextID += 1 }
            state.probes.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        send(MCPProtocol.request(id: id, method: "ping", params: .object([])).compactText + "\n")
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.cancelProbeSeconds)) {
            [weak self] in
            guard let self else { return }
            if self.shared.state.withLock({ $0.probes.remove(id) != nil }) { self.kill() }
        }
    }

    /// How long a server may take to answer the `ping` after a cancel.
    static let cancelProbeSeconds = 2

    /// Waits until the `ping` sent after a cancel is answered or its server killed (at most a
    /// little longer than ``cancelProbeSeconds``), so a call made right after a Ctrl-C does not
    /// go to a server about to be killed.
    func settled() async {
        var waited = 0
        while waited < Self.cancelProbeSeconds * 1000 + 500, shared.state.withLock({ !$0.probes.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(50))
            waited += 50
        }
    }

    /// Sends a notification (no answer).
    func notify(method: String, params: JSONValue? = nil) {
        send(MCPProtocol.notification(method: method, params: params).compactText + "\n")
    }

    /// Closes the server's stdin (MCP servers exit at end of input) and kills it one second
    /// later if it still runs.
    func stop() {
        shared.state.withLock { $0.unusable = true }
        closeInput()
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in kill() }
    }

    /// Kills the process at once (SIGKILL) and marks the connection unusable.
    func kill() {
        let running = shared.state.withLock { state in
            state.unusable = true
            state.probes = []
            return state.end == nil
        }
        if running { _ = Foundation.kill(pid, SIGKILL) }
        closeInput()
    }

    // MARK: - Internals

    private func send(_ line: String) {
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
                    return  // The server is gone; its end of output reports it.
                }
            }
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

    private func take(_ id: Int) -> Pending? {
        shared.state.withLock { $0.pending.removeValue(forKey: id) }
    }

    private func handle(_ event: PluginOutputReader.Event) {
        switch event {
        case .line(let line):
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            guard let message = try? JSONValue(parsing: line), case .object = message else {
                fail(.garbage(server: server, line: line))
                return
            }
            if message["method"] != nil {
                // A request from the server (answered) or a notification (ignored).
                if let answer = MCPProtocol.answer(toServerRequest: message) {
                    send(answer.compactText + "\n")
                }
                return
            }
            guard let id = message["id"].flatMap(Self.integer),
                message["result"] != nil || message["error"] != nil
            else {
                fail(.garbage(server: server, line: line))
                return
            }
            // The answer to a ping after a cancel: the server is alive.
            if shared.state.withLock({ $0.probes.remove(id) != nil }) { return }
            // An answer to a request that timed out or was cancelled is dropped.
            guard let pending = take(id) else { return }
            if let error = message["error"] {
                let text = error["message"]?.stringValue ?? error.compactText
                pending.continuation.resume(
                    throwing: MCPFault.rpcError(
                        server: server, during: pending.during, code: error["code"].flatMap(Self.integer),
                        message: text))
            } else {
                pending.continuation.resume(returning: message["result"] ?? .null)
            }
        case .lineTooLong:
            fail(.garbage(server: server, line: "(a line longer than \(MCPProtocol.maximumLineBytes) bytes)"))
        case .end:
            _ = shared.exited.wait(timeout: .now() + 2)
            let (pending, state) = shared.state.withLock { state in
                defer {
                    state.pending = [:]
                    state.probes = []
                    state.unusable = true
                }
                return (state.pending, state)
            }
            if state.end == nil { kill() }
            for (_, waiting) in pending.sorted(by: { $0.key < $1.key }) {
                waiting.continuation.resume(throwing: exitFault(waiting.during, state: state))
            }
        }
    }

    /// A protocol fault: kills the server and fails every waiting request with `fault`.
    private func fail(_ fault: MCPFault) {
        let pending = shared.state.withLock { state in
            defer {
                state.pending = [:]
                state.unusable = true
            }
            return state.pending
        }
        kill()
        for (_, waiting) in pending.sorted(by: { $0.key < $1.key }) {
            waiting.continuation.resume(throwing: fault)
        }
    }

    private func exitFault(_ during: String) -> MCPFault {
        exitFault(during, state: shared.state.withLock { $0 })
    }

    private func exitFault(_ during: String, state: State) -> MCPFault {
        .exited(server: server, end: state.end, during: during, lastError: state.lastError)
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value else { return nil }
        return Int(number.text)
    }

    /// Whole milliseconds, at least 1, at most a day.
    private static func milliseconds(_ duration: Duration) -> Int {
        let value =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return Int(min(max(value, 1), 86_400_000))
    }
}
