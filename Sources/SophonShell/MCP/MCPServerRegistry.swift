import Foundation
import SophonCore
import Synchronization

/// The MCP servers of one shell run (docs/mcp.md): those of `mcp.json` (read on first use,
/// with or without `--no-rc`) and those `mcp add` added, their running processes and tools.
///
/// A server starts when its tools are first needed (the first `ask` or `chat` that offers
/// functions, `tools`, `tool show`, `mcp list`) or at `mcp add`, and stays up for the run; one
/// that is never needed never starts, nor does a disabled one (`mcp disable`). One that failed
/// to start is reported once and its tools are not offered. A server that stopped (crash,
/// timeout, garbage) starts again on its next call, once per command (``MCPRestartBudget``).
final class MCPServerRegistry: Sendable {
    /// One tool a server lists, as it lists it (the tools plugin turns it into a declaration).
    struct Tool: Sendable, Equatable {
        /// The tool's name.
        var name: String
        /// Its `description`, if any.
        var description: String?
        /// Its `inputSchema` (JSON Schema), if any.
        var inputSchema: JSONValue?
        /// Why it is not offered (`input schema $.properties.x: ...`), when it is not.
        var unavailable: String?
    }

    /// Why a listed tool cannot be offered, decided by the tools plugin (its one conversion of
    /// a tool's JSON Schema); `nil` when it can.
    typealias ToolCheck = @Sendable (_ tool: Tool) -> String?

    /// A tool offered to the model and the server serving it.
    struct OfferedTool: Sendable {
        var server: String
        var trusted: Bool
        var tool: Tool
    }

    /// One server of `mcp.json` and what is known of it (``listing()`` reads it).
    struct Server: Sendable {
        var config: MCPServerConfig
        var connection: MCPConnection?
        var tools: [Tool] = []
        /// Whether a handshake succeeded once (its tools are known).
        var started = false
        /// Why the last start failed.
        var failure: String?
        /// Why the `mcp.json` entry cannot be used (then it never starts).
        var invalid: String?
    }

    /// The servers, and whether `mcp.json` was read.
    struct State: Sendable {
        var servers: [Server] = []
        var loaded = false
    }

    let state = Mutex(State())
    private let file: MCPConfigFile
    private let environment: [String: String]
    private let stderr: any ShellTextSink

    /// The variables a server inherits from the shell's environment (the API key is never
    /// passed); `env` of its entry adds more.
    static let inheritedVariables = [
        "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
    ]

    /// Creates a registry; nothing is read or started yet.
    /// - Parameters:
    ///   - environment: read for the config folder and `PATH`; servers inherit part of it.
    ///   - stderr: where warnings go (a server that cannot start, an invalid `mcp.json`).
    init(environment: [String: String], stderr: any ShellTextSink) {
        self.environment = environment
        self.stderr = stderr
        file = MCPConfigFile(paths: SophonPaths(environment: environment))
    }

    deinit {
        for server in state.withLock({ $0.servers }) { server.connection?.kill() }
    }

    /// The config file `mcp add` and `mcp remove` write.
    var configFile: MCPConfigFile { file }

    /// The names of the servers, in order (for completion and listings).
    var names: [String] {
        loadIfNeeded()
        return state.withLock { $0.servers.map(\.config.name) }
    }

    /// The configuration of server `name`, if there is one.
    func config(named name: String) -> MCPServerConfig? {
        loadIfNeeded()
        return state.withLock { $0.servers.first { $0.config.name == name }?.config }
    }

    // MARK: - Adding and removing

    /// `mcp add`: starts `config` (unless `start` is false: replays start nothing) and adds it
    /// under its name, replacing (and stopping) a server of that name.
    /// - Returns: the server's tools.
    /// - Throws: ``MCPFault`` when it cannot start; nothing is added then.
    func add(
        _ config: MCPServerConfig, start: Bool, timeout: Duration, check: @escaping ToolCheck
    ) async throws(MCPFault) -> [Tool] {
        loadIfNeeded()
        var server = Server(config: config)
        if start {
            let (connection, tools) = try await handshake(config, timeout: timeout, check: check)
            server.connection = connection
            server.tools = tools
            server.started = true
        }
        let replaced: MCPConnection? = state.withLock { state in
            if let index = state.servers.firstIndex(where: { $0.config.name == config.name }) {
                let old = state.servers[index].connection
                state.servers[index] = server
                return old
            }
            state.servers.append(server)
            return nil
        }
        replaced?.stop()
        return server.tools
    }

    /// `mcp remove`: stops server `name` and forgets it.
    /// - Returns: whether there was one.
    func remove(_ name: String) -> Bool {
        loadIfNeeded()
        let removed: Server? = state.withLock { state in
            guard let index = state.servers.firstIndex(where: { $0.config.name == name }) else { return nil }
            return state.servers.remove(at: index)
        }
        removed?.connection?.stop()
        return removed != nil
    }

    /// `mcp disable` / `mcp enable`: switches server `name` off (stopped, its tools no longer
    /// offered, never started) or on again (it starts when next needed; a failed start is
    /// tried again).
    /// - Returns: whether there is a server of that name.
    func setDisabled(_ name: String, _ disabled: Bool) -> Bool {
        loadIfNeeded()
        var stopped: MCPConnection?
        let found = update(name) { server in
            server.config.disabled = disabled
            server.failure = nil
            guard disabled else { return }
            stopped = server.connection
            server.connection = nil
            server.tools = []
            server.started = false
        }
        stopped?.stop()
        return found
    }

    // MARK: - Tools

    /// Starts every server not started yet, not disabled and not failed; a failure prints one
    /// warning.
    func startAll(timeout: Duration, check: @escaping ToolCheck) async {
        loadIfNeeded()
        let waiting = state.withLock { state in
            state.servers.filter {
                !$0.started && !$0.config.disabled && $0.failure == nil && $0.invalid == nil
            }.map(\.config)
        }
        for config in waiting {
            do {
                let (connection, tools) = try await handshake(config, timeout: timeout, check: check)
                let kept = update(config.name) { server in
                    server.connection = connection
                    server.tools = tools
                    server.started = true
                }
                if !kept { connection.stop() }
            } catch {
                update(config.name) { $0.failure = error.message }
                stderr.write("warning: \(error.message); its tools are not offered\n")
            }
        }
    }

    /// The tools offered to the model, in server order, each name once (the first server
    /// listing a name serves it).
    func offeredTools() -> [OfferedTool] {
        var seen = Set<String>()
        var offered: [OfferedTool] = []
        for server in state.withLock({ $0.servers }) where server.started && !server.config.disabled {
            for tool in server.tools {
                guard tool.unavailable == nil, seen.insert(tool.name).inserted else { continue }
                offered.append(
                    OfferedTool(server: server.config.name, trusted: server.config.trust, tool: tool))
            }
        }
        return offered
    }

    /// Calls tool `name` of `server` with `arguments`, starting the server again if it stopped
    /// (once per command, as `restarts` allows).
    /// - Returns: the function response (``MCPToolResult``) or the error text: the tool's own
    ///   (`isError`) or the fault, naming the server.
    func call(
        server name: String, tool: String, arguments: JSONValue, timeout: Duration,
        restarts: MCPRestartBudget,
        check: @escaping ToolCheck
    ) async -> Result<JSONValue, MCPToolError> {
        guard let server = state.withLock({ $0.servers.first { $0.config.name == name } }) else {
            return .failure(MCPToolError(message: "no MCP server named '\(name)'"))
        }
        guard !server.config.disabled else {
            return .failure(MCPToolError(message: "MCP server '\(name)' is disabled ('mcp enable \(name)')"))
        }
        let connection: MCPConnection
        await server.connection?.settled()
        if let running = server.connection, running.isUsable {
            connection = running
        } else {
            guard restarts.take(name) else {
                return .failure(MCPToolError(message: MCPFault.restartedOnce(server: name).message))
            }
            do {
                let (started, tools) = try await handshake(server.config, timeout: timeout, check: check)
                let kept = update(name) { entry in
                    entry.connection = started
                    entry.tools = tools
                    entry.started = true
                    entry.failure = nil
                }
                if !kept { started.stop() }
                connection = started
            } catch {
                return .failure(MCPToolError(message: error.message))
            }
        }
        do {
            let result = try await connection.request(
                method: "tools/call", params: MCPProtocol.callParams(name: tool, arguments: arguments),
                during: "tools/call '\(tool)'", timeout: timeout)
            if let problem = MCPToolResult.problem(result) {
                return .failure(
                    MCPToolError(
                        message: "MCP server '\(name)' answered tools/call '\(tool)' with \(problem)"))
            }
            return MCPToolResult.response(result)
        } catch let fault as MCPFault {
            return .failure(MCPToolError(message: fault.message))
        } catch {
            return .failure(MCPToolError(message: "interrupted"))
        }
    }

    // MARK: - Starting

    /// Reads `mcp.json` once; a file that cannot be used prints one warning.
    func loadIfNeeded() {
        let first = state.withLock { state in
            defer { state.loaded = true }
            return !state.loaded
        }
        guard first else { return }
        let contents: MCPConfigFile.Contents
        do {
            contents = try file.read()
        } catch {
            stderr.write("warning: \(error.message); no MCP servers were read from it\n")
            return
        }
        for entry in contents.invalid {
            stderr.write(
                "warning: \(file.path.path): \(entry.reason); server '\(entry.name)' is not started\n")
        }
        state.withLock { state in
            let added =
                contents.servers.map { Server(config: $0) }
                + contents.invalid.map {
                    Server(
                        config: MCPServerConfig(name: $0.name, command: "-", args: [], trust: false),
                        invalid: $0.reason)
                }
            state.servers =
                added
                + state.servers.filter { server in
                    !added.contains { $0.config.name == server.config.name }
                }
        }
    }

    /// Applies `change` to server `name`; `false` when it is gone (removed meanwhile).
    @discardableResult
    private func update(_ name: String, _ change: (inout Server) -> Void) -> Bool {
        state.withLock { state in
            guard let index = state.servers.firstIndex(where: { $0.config.name == name }) else {
                return false
            }
            change(&state.servers[index])
            return true
        }
    }

    /// Starts `config`'s process and runs `initialize`, `notifications/initialized` and the
    /// paged `tools/list`; kills the process when any of it fails.
    private func handshake(_ config: MCPServerConfig, timeout: Duration, check: ToolCheck)
        async throws(MCPFault)
        -> (MCPConnection, [Tool])
    {
        let executable = try config.executable(searching: environment)
        var childEnvironment: [String: String] = [:]
        for name in Self.inheritedVariables { childEnvironment[name] = environment[name] }
        for (name, value) in config.env { childEnvironment[name] = value }
        let connection = try MCPConnection(
            server: config.name, executable: executable, arguments: config.args, environment: childEnvironment
        )
        let wait = max(timeout, Self.minimumHandshakeTimeout)
        do {
            let initialized = try await connection.request(
                method: "initialize", params: MCPProtocol.initializeParams, during: "initialize",
                timeout: wait)
            guard let version = initialized["protocolVersion"]?.stringValue else {
                throw MCPFault.badReply(
                    server: config.name, during: "to initialize", reason: "no protocolVersion")
            }
            guard MCPProtocol.supportedVersions.contains(version) else {
                throw MCPFault.versionMismatch(server: config.name, version: version)
            }
            connection.notify(method: "notifications/initialized")
            let tools = try await listTools(connection, server: config.name, timeout: wait, check: check)
            return (connection, tools)
        } catch {
            connection.kill()
            throw error as? MCPFault
                ?? .startFailed(server: config.name, reason: "interrupted during initialize")
        }
    }

    /// The shortest wait for `initialize` and `tools/list`, whatever `tool-timeout` says (an
    /// interpreter starting on a loaded machine).
    static let minimumHandshakeTimeout: Duration = .seconds(30)

    /// The server's tools (``MCPConnection/listTools(timeout:)``), each checked by `check`; a
    /// tool without a name or listed twice is kept as not offered, never skipped silently.
    private func listTools(
        _ connection: MCPConnection, server: String, timeout: Duration, check: ToolCheck
    ) async throws
        -> [Tool]
    {
        let raw = try await connection.listTools(timeout: timeout) { stderr.write($0) }
        var tools: [Tool] = []
        for (index, item) in raw.enumerated() {
            guard let name = item["name"]?.stringValue else {
                // Listed as not offered, never skipped without a word.
                var nameless = Tool(name: "(tool \(index + 1) of tools/list)")
                nameless.unavailable = "no \"name\" string"
                tools.append(nameless)
                continue
            }
            var tool = Tool(
                name: name, description: item["description"]?.stringValue, inputSchema: item["inputSchema"])
            tool.unavailable = tools.contains(where: { $0.name == name }) ? "listed twice" : check(tool)
            tools.append(tool)
        }
        return tools
    }
}
