import SophonCore

/// The processes that serve tools to the model: external plugins (docs/plugin-protocol.md) and
/// MCP servers (docs/mcp.md). The runtime offers them as a service (``CommandHost/service(_:)``);
/// the tools plugin on top reaches them through the ``CommandHost`` members below, so the
/// core's command contract names neither.
protocol ToolServers: AnyObject, Sendable {
    /// The tools external plugins serve (plugins started so far), with the serving plugin.
    func pluginTools() -> [(plugin: String, tool: PluginManifest.Tool)]
    /// Whether `plugin` was loaded as trusted (`plugin load --trust PATH`): its tools run
    /// without asking.
    func isPluginTrusted(_ plugin: String) -> Bool
    /// Runs `name` of `plugin` with `arguments`, waiting at most `timeout`.
    func runPluginTool(plugin: String, name: String, arguments: JSONValue, timeout: Duration) async -> Result<
        JSONValue, PluginToolError
    >
    /// The MCP servers of the run; `nil` when there are none.
    var mcpServers: MCPServerRegistry? { get }
    /// Starts what serves tools and has not started yet: the discovered external plugins (so
    /// their tools are known before any of their commands runs) and the MCP servers that are
    /// not disabled (``MCPServerRegistry/startAll(timeout:check:)``). Called when tools are
    /// first needed (a turn that offers functions, `tools`, `tool show`), never before; what
    /// started stays up for the session.
    /// - Parameters:
    ///   - timeout: `tool-timeout`, for the MCP handshakes (plugins use the session's timeout).
    ///   - check: why a listed MCP tool cannot be offered.
    func startToolServers(timeout: Duration, check: @escaping MCPServerRegistry.ToolCheck) async
}

extension CommandHost {
    /// The host's tool servers, if it has any.
    var toolServers: (any ToolServers)? { service((any ToolServers).self) }

    /// The MCP servers of the run (docs/mcp.md); `nil` when the host has none.
    var mcpServers: MCPServerRegistry? { toolServers?.mcpServers }

    /// The tools external plugins serve (plugins started so far), with the serving plugin.
    func pluginTools() -> [(plugin: String, tool: PluginManifest.Tool)] { toolServers?.pluginTools() ?? [] }

    /// Starts the plugins and MCP servers that serve tools (``ToolServers/startToolServers(timeout:check:)``);
    /// a host without tool servers has none.
    func startToolServers(timeout: Duration, check: @escaping MCPServerRegistry.ToolCheck) async {
        await toolServers?.startToolServers(timeout: timeout, check: check)
    }

    /// Whether `plugin` was loaded with `plugin load --trust`; no plugin is trusted without
    /// tool servers.
    func isPluginTrusted(_ plugin: String) -> Bool { toolServers?.isPluginTrusted(plugin) ?? false }

    /// Runs a plugin's tool; a host without tool servers has no plugins.
    func runPluginTool(plugin: String, name: String, arguments: JSONValue, timeout: Duration) async -> Result<
        JSONValue, PluginToolError
    > {
        guard let servers = toolServers else {
            return .failure(PluginToolError(message: "no plugin serves '\(name)'"))
        }
        return await servers.runPluginTool(plugin: plugin, name: name, arguments: arguments, timeout: timeout)
    }
}
