import Foundation
import SophonCore
import SophonGemini

/// The MCP tools a command offers (docs/mcp.md, "Tools"): those of the running servers, or in a
/// replay, where no server starts, the functions the next recorded request declared beyond the
/// session's and the plugins' (docs/tapes.md), each served by the server the tape's `tool` lines
/// name for it (the first MCP server when none does).
enum MCPServedTools {
    /// Whether MCP servers offer tools to this command, starting the servers of `mcp.json` not
    /// started yet (a replay starts none).
    static func available(context: CommandContext, services: GeminiServices) async -> Bool {
        guard let servers = context.runtime.mcpServers else { return false }
        if services.transcript.runsLive {
            await servers.startAll(timeout: context.session.withToolState { $0.timeout })
        }
        return !offered(context: context, services: services).isEmpty
    }

    /// The session's MCP tools: the running servers', or those the transcript's record offers.
    static func offered(context: CommandContext, services: GeminiServices?) -> [MCPServerRegistry.OfferedTool]
    {
        guard let servers = context.runtime.mcpServers else { return [] }
        guard let recorded = services?.transcript.recordedFunctions(orLast: true) else {
            return servers.offeredTools()
        }
        let names = Set(servers.names)
        guard !names.isEmpty else { return [] }
        return recorded.compactMap { function in
            guard
                let server = function.server.flatMap({ names.contains($0) ? $0 : nil })
                    ?? servers.names.first,
                let declaration = try? JSONDecoder().decode(
                    FunctionDeclaration.self, from: Data(function.declaration.compactText.utf8))
            else { return nil }
            return MCPServerRegistry.OfferedTool(
                server: server, trusted: servers.config(named: server)?.trust ?? false,
                declaration: declaration)
        }
    }
}
