import Foundation
import SophonCore

/// `mcp add`, `mcp list`, `mcp remove`, `mcp disable` and `mcp enable` (docs/commands.md, "MCP
/// servers"; docs/mcp.md).
enum MCPCommands {
    /// The options of `mcp add`, declared once.
    static let declared = [
        CommandOption(name: "--trust", help: "its tools run without asking (add)")
    ]

    /// Runs `mcp` with the request's words.
    /// - Parameter live: whether tools run live (the transcript's ``GeminiTranscript/runsLive``;
    ///   a replay's `mcp add` starts nothing and its `mcp list` starts no server).
    /// - Throws: ``CommandFailure``: `usage`, the server's start fault, `fileError` for
    ///   `mcp.json`, `pluginNotFound` for an unknown server.
    static func run(_ request: CommandRequest, context: CommandContext, live: Bool) async throws
        -> CommandResult
    {
        guard let servers = context.runtime.mcpServers else {
            throw CommandFailure(kind: .internalError, message: "mcp: this shell has no MCP host")
        }
        var words = request.arguments[...]
        if let first = words.first, first == request.name { words.removeFirst() }
        switch words.first {
        case "add":
            return try await add(
                Array(words.dropFirst()), servers: servers, context: context, live: live)
        case "list" where words.count == 1:
            if live {
                await servers.startAll(
                    timeout: context.session.withToolState { $0.timeout }, check: MCPServedTools.check)
            }
            return .text(servers.listing())
        case "remove" where words.count == 2:
            let name = words[words.startIndex + 1]
            let inSession = servers.remove(name)
            let inFile: Bool
            do {
                inFile = try servers.configFile.remove(name)
            } catch {
                throw CommandFailure(kind: .fileError, message: "mcp remove: \(error.message)")
            }
            guard inSession || inFile else {
                throw CommandFailure(
                    kind: .pluginNotFound,
                    message: "mcp remove: no MCP server named '\(name)' (see 'mcp list')")
            }
            if context.mode == .interactive { context.io.printError("removed MCP server '\(name)'") }
            return .none
        case "disable" where words.count == 2, "enable" where words.count == 2:
            let verb = words[words.startIndex]
            return try switchServer(
                words[words.startIndex + 1], off: verb == "disable", servers: servers, context: context)
        default:
            throw context.usageFailure("mcp")
        }
    }

    /// `mcp disable NAME` (`off`) or `mcp enable NAME`: sets or removes `"disabled": true` in
    /// `mcp.json` and switches the server off (stopped, its tools no longer offered, never
    /// started) or on (it starts when its tools are next needed).
    private static func switchServer(
        _ name: String, off: Bool, servers: MCPServerRegistry, context: CommandContext
    ) throws -> CommandResult {
        let command = off ? "mcp disable" : "mcp enable"
        let inFile: Bool
        do {
            inFile = try servers.configFile.setDisabled(name, off)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(command): \(error.message)")
        }
        let inSession = servers.setDisabled(name, off)
        guard inSession || inFile else {
            throw CommandFailure(
                kind: .pluginNotFound, message: "\(command): no MCP server named '\(name)' (see 'mcp list')")
        }
        if context.mode == .interactive {
            context.io.printError("\(off ? "disabled" : "enabled") MCP server '\(name)'")
        }
        return .none
    }

    /// `mcp add [--trust] NAME -- COMMAND [ARGS...]`: starts the server (its tools are listed),
    /// then saves it in `mcp.json`.
    private static func add(
        _ words: [String], servers: MCPServerRegistry, context: CommandContext, live: Bool
    ) async throws -> CommandResult {
        // The server's own command line follows `--`: only the words before it are options.
        let head = Array(words.prefix { $0 != "--" })
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(head, declared: declared)
        } catch {
            throw error.failure(command: "mcp add")
        }
        let trust = parsed.has("--trust")
        let rest = words[head.count...]
        guard parsed.operands.count == 1, let name = parsed.operands.first, rest.count >= 2 else {
            throw context.usageFailure("mcp")
        }
        guard isValidName(name) else {
            throw CommandFailure(
                kind: .usage,
                message:
                    "mcp add: '\(name)' is not a valid server name (letters, digits, _ . -; a letter first)")
        }
        let commandLine = Array(rest.dropFirst())
        var command = commandLine[0]
        if command.contains("/"), !command.hasPrefix("/") {
            // A relative path is saved absolute: mcp.json is read from any folder.
            command = URL(fileURLWithPath: context.resolve(command)).standardizedFileURL.path
        }
        let config = MCPServerConfig(
            name: name, command: command, args: Array(commandLine.dropFirst()), trust: trust)
        let tools: [MCPServerRegistry.Tool]
        do {
            tools = try await servers.add(
                config, start: live, timeout: context.session.withToolState { $0.timeout },
                check: MCPServedTools.check)
        } catch {
            throw error.failure
        }
        do {
            try servers.configFile.save(config)
        } catch {
            _ = servers.remove(name)
            throw CommandFailure(kind: .fileError, message: "mcp add: \(error.message)")
        }
        for tool in tools {
            if let reason = tool.unavailable {
                context.io.printError(
                    "warning: MCP server '\(name)': tool '\(tool.name)' is not offered: \(reason)")
            }
        }
        if context.mode == .interactive, live {
            let offered = tools.filter { $0.unavailable == nil }.map(\.name)
            let count = offered.count == 1 ? "1 tool" : "\(offered.count) tools"
            let list = offered.isEmpty ? "" : " (" + offered.joined(separator: ", ") + ")"
            context.io.printError("added MCP server '\(name)': \(count)\(list)")
        }
        return .none
    }

    /// Letters, digits, `_`, `.`, `-`; a letter first; at most 64.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
            CharacterSet.letters.contains(first), first.isASCII
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0))
        }
    }
}
