import Dispatch
import Foundation
import SophonCore
import Synchronization

/// One running MCP server process over stdio (docs/mcp.md): JSON-RPC 2.0 messages, one per line,
/// written to its stdin and read from its stdout.
///
/// The process and its lines are a ``ChildProcess``; answers are matched to requests by `id`.
/// The server's stderr is not copied to ours: its last line is kept and named when the server
/// dies. Each request waits at most its timeout: then the process is killed (SIGKILL) and the
/// request fails. A line that is not JSON-RPC kills the process and fails every waiting
/// request. After any fault the connection is unusable (``isUsable``).
final class MCPConnection: Sendable {
    private struct Pending {
        var during: String
        var continuation: CheckedContinuation<JSONValue, any Error>
    }

    private struct State {
        var nextID = 1
        var pending: [Int: Pending] = [:]
        var unusable = false
        var lastError: String?
        /// Ids of the `ping`s sent after a cancel, not answered yet.
        var probes: Set<Int> = []
    }

    /// The server's name, for messages.
    let server: String
    private let process: ChildProcess
    private let state = Mutex(State())

    /// Starts `executable` with `arguments` and `environment`, with pipes for its three streams.
    /// - Throws: ``MCPFault/startFailed(server:reason:)``.
    init(server: String, executable: String, arguments: [String], environment: [String: String])
        throws(MCPFault)
    {
        self.server = server
        do {
            process = try ChildProcess(
                executable: executable, arguments: arguments, environment: environment,
                writerLabel: "sophon.mcp.\(server).stdin", onExit: { MCPChildProcesses.shared.remove($0) })
        } catch {
            throw .startFailed(server: server, reason: error.reason)
        }
        MCPChildProcesses.shared.add(process.pid)
        if process.end != nil { MCPChildProcesses.shared.remove(process.pid) }  // it ended before add
        process.start(
            threadName: "mcp-" + server, onEvent: { [weak self] event in self?.handle(event) },
            onErrorLine: { [weak self] line in
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
                self?.state.withLock { $0.lastError = line }
            })
    }

    /// Whether requests can still be sent (no fault, not stopped, not exited).
    var isUsable: Bool { !state.withLock { $0.unusable } && process.end == nil }

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
        let id: Int? = state.withLock { state in
            guard !state.unusable, process.end == nil else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { throw exitFault(during) }
        let line = MCPProtocol.request(id: id, method: method, params: params).compactText + "\n"
        let fault = MCPFault.timedOut(server: server, during: during, after: DurationParser.format(timeout))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refused: (any Error)? = state.withLock { state in
                    let end = process.end
                    if state.unusable || end != nil { return exitFault(during, end: end, state: state) }
                    if Task.isCancelled { return CancellationError() }
                    state.pending[id] = Pending(during: during, continuation: continuation)
                    return nil
                }
                if let refused {
                    continuation.resume(throwing: refused)
                    return
                }
                process.send(line)
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .milliseconds(timeout.deadlineMilliseconds)
                ) {
                    [weak self] in
                    guard let self, let pending = self.take(id) else { return }
                    self.kill()
                    pending.continuation.resume(throwing: fault)
                }
            }
        } onCancel: {
            guard let pending = take(id) else { return }
            process.send(
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
        let id: Int? = state.withLock { state in
            guard !state.unusable, process.end == nil else { return nil }
            defer { state.nextID += 1 }
            state.probes.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        process.send(MCPProtocol.request(id: id, method: "ping", params: .object([])).compactText + "\n")
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.cancelProbeSeconds)) {
            [weak self] in
            guard let self else { return }
            if self.state.withLock({ $0.probes.remove(id) != nil }) { self.kill() }
        }
    }

    /// How long a server may take to answer the `ping` after a cancel.
    static let cancelProbeSeconds = 2

    /// Waits until the `ping` sent after a cancel is answered or its server killed (at most a
    /// little longer than ``cancelProbeSeconds``), so a call made right after a Ctrl-C does not
    /// go to a server about to be killed.
    func settled() async {
        var waited = 0
        while waited < Self.cancelProbeSeconds * 1000 + 500, state.withLock({ !$0.probes.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(50))
            waited += 50
        }
    }

    /// Sends a notification (no answer).
    func notify(method: String, params: JSONValue? = nil) {
        process.send(MCPProtocol.notification(method: method, params: params).compactText + "\n")
    }

    /// Closes the server's stdin (MCP servers exit at end of input) and kills it one second
    /// later if it still runs.
    func stop() {
        state.withLock { $0.unusable = true }
        process.stop()
    }

    /// Kills the process at once (SIGKILL) and marks the connection unusable.
    func kill() {
        state.withLock { state in
            state.unusable = true
            state.probes = []
        }
        process.kill()
    }

    // MARK: - Internals

    private func take(_ id: Int) -> Pending? {
        state.withLock { $0.pending.removeValue(forKey: id) }
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
                    process.send(answer.compactText + "\n")
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
            if state.withLock({ $0.probes.remove(id) != nil }) { return }
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
            let end = process.waitForEnd(seconds: 2)
            let snapshot = state.withLock { state in
                defer {
                    state.pending = [:]
                    state.probes = []
                    state.unusable = true
                }
                return state
            }
            if end == nil { kill() }
            for (_, waiting) in snapshot.pending.sorted(by: { $0.key < $1.key }) {
                waiting.continuation.resume(throwing: exitFault(waiting.during, end: end, state: snapshot))
            }
        }
    }

    /// A protocol fault: kills the server and fails every waiting request with `fault`.
    private func fail(_ fault: MCPFault) {
        let pending = state.withLock { state in
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
        exitFault(during, end: process.end, state: state.withLock { $0 })
    }

    private func exitFault(_ during: String, end: PluginProcessEnd?, state: State) -> MCPFault {
        .exited(server: server, end: end, during: during, lastError: state.lastError)
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value else { return nil }
        return Int(number.text)
    }

    /// `tools/list`, page after page while `nextCursor` is new; a repeated cursor stops the
    /// listing with a warning (`warn`).
    /// - Returns: the raw tool items of every page, in order.
    /// - Throws: ``MCPFault`` (`badReply` when a page has no `tools` array, or the request's
    ///   faults).
    func listTools(timeout: Duration, warn: (String) -> Void) async throws -> [JSONValue] {
        var raw: [JSONValue] = []
        var cursor: String?
        var seen = Set<String>()
        while true {
            let page = try await request(
                method: "tools/list", params: MCPProtocol.listParams(cursor: cursor), during: "tools/list",
                timeout: timeout)
            guard case .array(let items)? = page["tools"] else {
                throw MCPFault.badReply(server: server, during: "to tools/list", reason: "no 'tools' array")
            }
            raw += items
            guard let next = page["nextCursor"]?.stringValue else { break }
            guard seen.insert(next).inserted else {
                warn(
                    "warning: MCP server '\(server)' sent the tools/list cursor '\(next)' twice; the listing stops there\n"
                )
                break
            }
            cursor = next
        }
        return raw
    }
}

/// The MCP server processes still running, killed when the shell exits (docs/mcp.md,
/// "Lifetime"): `exit(3)` runs the handler registered on first use, so no server outlives the
/// shell, whatever the server does with its stdin.
final class MCPChildProcesses: Sendable {
    /// The one list of this process.
    static let shared = MCPChildProcesses()

    private let pids = Mutex(Set<Int32>())

    private init() {
        atexit {
            MCPChildProcesses.shared.killAll()
        }
    }

    /// Remembers a started server.
    func add(_ pid: Int32) { _ = pids.withLock { $0.insert(pid) } }

    /// Forgets a server that ended.
    func remove(_ pid: Int32) { _ = pids.withLock { $0.remove(pid) } }

    /// Kills (SIGKILL) every server still running.
    func killAll() {
        for pid in pids.withLock({ $0 }) { _ = kill(-pid, SIGKILL) }  // Each leads its own group.
    }
}
