/// `mcp list`: the servers of `mcp.json`, their state and the tools they offer.
extension MCPServerRegistry {
    /// `mcp list`: one line per server, `NAME  STATE  N tools  trusted|untrusted  COMMAND`
    /// (STATE `running`, `not started`, `stopped`, `failed`, `invalid`, `disabled`; `-` tools
    /// before a start), then indented: why it failed or is invalid, and each tool that is not offered
    /// with the reason (`not offered: NAME: REASON`).
    func listing() -> String {
        loadIfNeeded()
        let servers = state.withLock { $0.servers }
        guard !servers.isEmpty else { return "(no MCP servers; add one with 'mcp add NAME -- COMMAND')" }
        // Which server offers each tool name: the first started one that declares it, as
        // ``offeredTools()`` decides.
        var offeredBy: [String: String] = [:]
        for server in servers where server.started && !server.config.disabled {
            for tool in server.tools where tool.unavailable == nil && offeredBy[tool.name] == nil {
                offeredBy[tool.name] = server.config.name
            }
        }
        func shadowingServer(_ tool: Tool, of server: Server) -> String? {
            guard tool.unavailable == nil, let first = offeredBy[tool.name], first != server.config.name
            else { return nil }
            return first
        }
        let rows: [[String]] = servers.map { server in
            let stateText: String
            if server.invalid != nil {
                stateText = "invalid"
            } else if server.config.disabled {
                stateText = "disabled"
            } else if server.failure != nil {
                stateText = "failed"
            } else if !server.started {
                stateText = "not started"
            } else if server.connection?.isUsable == true {
                stateText = "running"
            } else {
                stateText = "stopped"
            }
            let offered = server.tools.filter {
                $0.unavailable == nil && shadowingServer($0, of: server) == nil
            }
            .count
            let tools = server.started ? (offered == 1 ? "1 tool" : "\(offered) tools") : "-"
            return [
                server.config.name, stateText, tools, server.config.trust ? "trusted" : "untrusted",
                server.config.commandLine,
            ]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines: [String] = []
        for (row, server) in zip(rows, servers) {
            let padded = (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            lines.append((padded + [row[4]]).joined(separator: "  "))
            if let reason = server.invalid ?? server.failure { lines.append("  \(reason)") }
            for tool in server.tools {
                if let reason = tool.unavailable { lines.append("  not offered: \(tool.name): \(reason)") }
                if let first = shadowingServer(tool, of: server) {
                    lines.append("  not offered: \(tool.name): server '\(first)' offers a tool of that name")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
