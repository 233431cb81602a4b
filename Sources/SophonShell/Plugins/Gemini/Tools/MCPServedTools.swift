import Foundation
import SophonCore
import SophonGemini

/// The MCP tools a command offers (docs/mcp.md, "Tools"): those of the running servers, or in a
/// replay, where no server starts, the functions the next recorded request declared beyond the
/// session's and the plugins' (docs/tapes.md), each served by the server the tape's `tool` lines
/// name for it (the first MCP server when none does).
enum MCPServedTools {
    /// An MCP tool offered to the model: its declaration and the server serving it.
    struct Offered {
        var server: String
        var trusted: Bool
        var declaration: FunctionDeclaration
    }

    /// What MCP hosting asks of each listed tool: the reason it cannot be offered, by the one
    /// conversion of a tool's JSON Schema (``FunctionDeclaration/converting(name:description:inputSchema:sendUnconvertible:)``).
    static let check: MCPServerRegistry.ToolCheck = { tool in
        do {
            _ = try declaration(tool)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The declaration of a listed tool.
    static func declaration(_ tool: MCPServerRegistry.Tool) throws(FunctionDeclarationError)
        -> FunctionDeclaration
    {
        try FunctionDeclaration.converting(
            name: tool.name, description: tool.description, inputSchema: tool.inputSchema
        ).declaration
    }

    /// The session's MCP tools: the running servers', or those the transcript's record offers.
    static func offered(context: CommandContext, services: GeminiServices?) -> [Offered] {
        guard let servers = context.runtime.mcpServers else { return [] }
        guard let recorded = services?.transcript.recordedFunctions(orLast: true) else {
            return servers.offeredTools().compactMap { offered in
                (try? declaration(offered.tool)).map {
                    Offered(server: offered.server, trusted: offered.trusted, declaration: $0)
                }
            }
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
            return Offered(
                server: server, trusted: servers.config(named: server)?.trust ?? false,
                declaration: declaration)
        }
    }
}
