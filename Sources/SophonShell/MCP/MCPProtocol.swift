import SophonCore

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
