import SophonCore
import Testing

@testable import SophonShell

/// How `tools/call` results become function responses (docs/mcp.md, "Results").
@Suite struct MCPToolResultTests {
    static func mapped(_ text: String) throws -> Result<JSONValue, MCPToolError> {
        MCPToolResult.response(try JSONValue(parsing: text))
    }

    @Test func textItemsAreJoinedWithANewlineAndOtherItemsAreLeftOut() throws {
        let result = try Self.mapped(
            #"{"content": [{"type": "text", "text": "a"}, {"type": "image", "data": "", "mimeType": "image/png"}, {"type": "text", "text": "b\nc"}]}"#
        )
        #expect(result == .success(.object([JSONMember("content", .string("a\nb\nc"))])))
        #expect(
            try Self.mapped(#"{"content": []}"#) == .success(.object([JSONMember("content", .string(""))])))
    }

    @Test func structuredContentIsTheResponse() throws {
        let result = try Self.mapped(
            #"{"content": [{"type": "text", "text": "{\"sum\": 5}"}], "structuredContent": {"sum": 5, "of": [2, 3]}}"#
        )
        #expect(result == .success(try JSONValue(parsing: #"{"sum": 5, "of": [2, 3]}"#)))
    }

    @Test func isErrorIsAnErrorWithTheText() throws {
        let result = try Self.mapped(
            #"{"content": [{"type": "text", "text": "bad zone"}, {"type": "text", "text": "try UTC"}], "isError": true}"#
        )
        #expect(result == .failure(MCPToolError(message: "bad zone\ntry UTC", isToolError: true)))
        #expect(
            try Self.mapped(#"{"content": [], "isError": true}"#)
                == .failure(MCPToolError(message: "the tool failed", isToolError: true)))
        // `isError: false` is an ordinary result.
        #expect(
            try Self.mapped(#"{"content": [{"type": "text", "text": "ok"}], "isError": false}"#)
                == .success(.object([JSONMember("content", .string("ok"))])))
    }

    @Test func aRestartIsAllowedOncePerServer() {
        let budget = MCPRestartBudget()
        #expect(budget.take("a"))
        #expect(!budget.take("a"))
        #expect(budget.take("b"))
    }

    @Test func serverRequestsAreAnsweredAndNotificationsIgnored() throws {
        let ping = MCPProtocol.answer(
            toServerRequest: try JSONValue(parsing: #"{"jsonrpc": "2.0", "id": 7, "method": "ping"}"#))
        #expect(ping == (try JSONValue(parsing: #"{"jsonrpc": "2.0", "id": 7, "result": {}}"#)))
        let other = MCPProtocol.answer(
            toServerRequest: try JSONValue(parsing: #"{"jsonrpc": "2.0", "id": "x", "method": "roots/list"}"#)
        )
        #expect(
            other
                == (try JSONValue(
                    parsing:
                        #"{"jsonrpc": "2.0", "id": "x", "error": {"code": -32601, "message": "method not found: roots/list"}}"#
                )))
        #expect(
            MCPProtocol.answer(
                toServerRequest: try JSONValue(
                    parsing: #"{"jsonrpc": "2.0", "method": "notifications/message"}"#))
                == nil)
    }
}
