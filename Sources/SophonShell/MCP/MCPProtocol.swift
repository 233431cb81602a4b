import SophonCore
import Synchronization

/// The Model Context Protocol messages the shell sends and how it reads answers
/// (docs/mcp.md, "Protocol"): JSON-RPC 2.0, one message per line on the server's stdin and
/// stdout.
enum MCPProtocol {
    /// The protocol versions this client speaks, newest first; `initialize` offers the first.
    static let supportedVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The longest line read from a server (64 MiB), as for plugins.
    static let maximumLineBytes = PluginProtocol.maximumLineBytes

    /// `{"jsonrpc": "2.0", "id": ID, "method": METHOD, "params": PARAMS}`.
    static func request(id: Int, method: String, params: JSONValue) -> JSONValue {
        .object([
            JSONMember("jsonrpc", .string("2.0")), JSONMember("id", .integer(id)),
            JSONMember("method", .string(method)), JSONMember("params", params),
        ])
    }

    /// A notification: a request without `id` (no answer comes).
    static func notification(method: String, params: JSONValue? = nil) -> JSONValue {
        var members = [JSONMember("jsonrpc", .string("2.0")), JSONMember("method", .string(method))]
        if let params { members.append(JSONMember("params", params)) }
        return .object(members)
    }

    /// The `initialize` parameters: the newest version, no client capabilities, and the
    /// client's name and version.
    static var initializeParams: JSONValue {
        .object([
            JSONMember("protocolVersion", .string(supportedVersions[0])),
            JSONMember("capabilities", .object([])),
            JSONMember(
                "clientInfo",
                .object([
                    JSONMember("name", .string("sophon")),
                    JSONMember("version", .string(String(HelpText.version.dropFirst("sophon ".count)))),
                ])),
        ])
    }

    /// The `tools/list` parameters: `{}` for the first page, `{"cursor": C}` after.
    static func listParams(cursor: String?) -> JSONValue {
        .object(cursor.map { [JSONMember("cursor", .string($0))] } ?? [])
    }

    /// The `tools/call` parameters.
    static func callParams(name: String, arguments: JSONValue) -> JSONValue {
        .object([JSONMember("name", .string(name)), JSONMember("arguments", arguments)])
    }

    /// The answer to a request the server sent: `{}` for `ping`, else JSON-RPC error -32601.
    static func answer(toServerRequest message: JSONValue) -> JSONValue? {
        guard let id = message["id"], let method = message["method"]?.stringValue else { return nil }
        var members = [JSONMember("jsonrpc", .string("2.0")), JSONMember("id", id)]
        if method == "ping" {
            members.append(JSONMember("result", .object([])))
        } else {
            members.append(
                JSONMember(
                    "error",
                    .object([
                        JSONMember("code", .integer(-32601)),
                        JSONMember("message", .string("method not found: \(method)")),
                    ])))
        }
        return .object(members)
    }
}

/// How a `tools/call` result becomes the function response sent to the model (docs/mcp.md,
/// "Results"): `structuredContent` as is; otherwise the `text` content items joined with a
/// newline as `{"content": TEXT}`; a result with `isError: true` as `{"error": TEXT}`. Content
/// items of other types (images, audio, resources) are not sent.
enum MCPToolResult {
    /// The response for `result`, or the error text of a result marked `isError`.
    static func response(_ result: JSONValue) -> Result<JSONValue, MCPToolError> {
        let text = joinedText(result["content"])
        if result["isError"] == .bool(true) {
            return .failure(MCPToolError(message: text.isEmpty ? "the tool failed" : text, isToolError: true))
        }
        if let structured = result["structuredContent"] {
            if case .object = structured { return .success(structured) }
            return .success(.object([JSONMember("result", structured)]))
        }
        return .success(.object([JSONMember("content", .string(text))]))
    }

    /// What makes `result` unusable as a `CallToolResult`, in words (`no 'content' array`), or
    /// `nil`: a result must be an object with a `content` array, unless it carries
    /// `structuredContent` or `isError` (docs/mcp.md, "Results"). Never sent as an empty answer.
    static func problem(_ result: JSONValue) -> String? {
        guard case .object = result else { return "a result that is not an object" }
        if result["structuredContent"] != nil || result["isError"] == .bool(true) { return nil }
        guard case .array? = result["content"] else { return "a result with no 'content' array" }
        return nil
    }

    /// The `text` of every `{"type": "text"}` item, in order, joined with `\n`.
    static func joinedText(_ content: JSONValue?) -> String {
        guard case .array(let items)? = content else { return "" }
        return items.compactMap { item in
            item["type"]?.stringValue == "text" ? item["text"]?.stringValue : nil
        }.joined(separator: "\n")
    }
}

/// Why an MCP tool call failed: the text sent to the model as `{"error": TEXT}`.
struct MCPToolError: Error, Sendable, Equatable {
    /// The tool's own error text, or the fault (naming the server).
    var message: String
    /// Whether the tool itself reported the error (`isError`), not a fault of the server.
    var isToolError = false
}

/// The servers restarted during one command: a server that stops is started again on its next
/// call once per command (docs/mcp.md, "Faults").
final class MCPRestartBudget: Sendable {
    private let used = Mutex(Set<String>())

    init() {}

    /// Whether `server` may be restarted now (then it may not again in this command).
    func take(_ server: String) -> Bool { used.withLock { $0.insert(server).inserted } }
}
