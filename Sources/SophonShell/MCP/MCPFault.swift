/// Why an MCP server could not answer a request (docs/mcp.md, "Faults"). Every message names
/// the server; the shell and its session carry on after any of them, and a failed tool call
/// goes back to the model as `{"error": MESSAGE}`.
enum MCPFault: Error, Sendable, Equatable {
    /// The command could not be started (not found, not executable, `Process.run()` failed).
    case startFailed(server: String, reason: String)
    /// The process ended (or closed its output) while a request was waiting. `lastError` is
    /// the last line the server wrote on its stderr, if any.
    case exited(server: String, end: PluginProcessEnd?, during: String, lastError: String?)
    /// A line on its stdout is not a JSON-RPC message.
    case garbage(server: String, line: String)
    /// No answer within the timeout; the process was killed.
    case timedOut(server: String, during: String, after: String)
    /// The server answered a request with a JSON-RPC error object.
    case rpcError(server: String, during: String, code: Int?, message: String)
    /// The answer does not have the shape MCP defines (a `tools/list` without `tools`).
    case badReply(server: String, during: String, reason: String)
    /// The server chose a protocol version this client does not speak.
    case versionMismatch(server: String, version: String)
    /// The server crashed again after it was restarted once in this command.
    case restartedOnce(server: String)

    /// The error kind of `--json` error objects.
    var kind: ShellErrorKind {
        switch self {
        case .startFailed: .pluginStartFailed
        case .exited, .restartedOnce: .pluginExited
        case .garbage, .badReply, .versionMismatch: .pluginProtocolError
        case .timedOut: .pluginTimeout
        // An error answer to the handshake (`initialize`, `tools/list`) is a failed handshake
        // (docs/commands.md, "mcp"); to a tool call, the tool's error.
        case .rpcError(_, let during, _, _):
            during.hasPrefix("tools/call") ? .pluginError : .pluginProtocolError
        }
    }

    /// One line, without the `error: ` prefix.
    var message: String {
        switch self {
        case .startFailed(let server, let reason):
            return "MCP server '\(server)' could not start: \(reason)"
        case .exited(let server, let end, let during, let lastError):
            let how: String
            switch end {
            case .status(let code)?: how = "exited with status \(code)"
            case .signal(let number)?: how = "was killed by signal \(number)"
            case nil: how = "closed its output"
            }
            let tail = lastError.map { " (its stderr: \(PluginFault.quoted($0)))" } ?? ""
            return "MCP server '\(server)' \(how) during \(during)\(tail)"
        case .garbage(let server, let line):
            return
                "MCP server '\(server)' wrote a line that is not JSON-RPC: \(PluginFault.quoted(line)); it was stopped"
        case .timedOut(let server, let during, let after):
            return "MCP server '\(server)' did not answer \(during) within \(after); it was stopped"
        case .rpcError(let server, let during, let code, let message):
            let number = code.map { " \($0)" } ?? ""
            return "MCP server '\(server)' answered \(during) with error\(number): \(message)"
        case .badReply(let server, let during, let reason):
            return "MCP server '\(server)' sent an invalid answer \(during): \(reason)"
        case .versionMismatch(let server, let version):
            let ours = MCPProtocol.supportedVersions.joined(separator: ", ")
            return "MCP server '\(server)' speaks protocol version \(version); sophon speaks \(ours)"
        case .restartedOnce(let server):
            return
                "MCP server '\(server)' stopped again after its restart in this command; it starts again on the next command"
        }
    }

    /// The failure of a shell command.
    var failure: CommandFailure { CommandFailure(kind: kind, message: message) }
}
