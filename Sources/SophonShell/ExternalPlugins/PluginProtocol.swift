import SophonCore

/// The messages of the plugin protocol (docs/plugin-protocol.md): JSON Lines over the
/// plugin's stdin and stdout, one JSON object per line, UTF-8.
enum PluginProtocol {
    /// The protocol versions this shell speaks, oldest first.
    static let versions = [1]

    /// The longest line accepted from a plugin, in bytes (a larger one is a protocol fault,
    /// so a runaway plugin cannot exhaust memory).
    static let maximumLineBytes = 64 * 1024 * 1024

    /// Reply types a plugin may send.
    static let replyTypes: Set<String> = ["hello", "result", "error"]

    /// `{"type":"hello","id":ID,"protocols":[1],"shell":"sophon 0.1.0"}`.
    static func hello(id: Int) -> JSONValue {
        .object([
            JSONMember("type", .string("hello")), JSONMember("id", .integer(id)),
            JSONMember("protocols", .array(versions.map { .integer($0) })),
            JSONMember("shell", .string(HelpText.version)),
        ])
    }

    /// `{"type":"call","id":ID,"command":NAME,"args":[...],"session":{...}}`.
    static func call(id: Int, command: String, arguments: [String], session: JSONValue) -> JSONValue {
        .object([
            JSONMember("type", .string("call")), JSONMember("id", .integer(id)),
            JSONMember("command", .string(command)),
            JSONMember("args", .array(arguments.map(JSONValue.string))),
            JSONMember("session", session),
        ])
    }

    /// `{"type":"cancel","id":ID}`: asks the plugin to stop request ID and answer it soon.
    static func cancel(id: Int) -> JSONValue {
        .object([JSONMember("type", .string("cancel")), JSONMember("id", .integer(id))])
    }

    /// The read-only view of the session a call carries: what the plugins' states add (the
    /// Gemini plugin's `model` and `schema`, Gemini Schema JSON, absent without a schema),
    /// `last` (absent before any value) and `variables` (an object, names sorted so the line
    /// is byte-stable).
    static func sessionView(_ session: ShellSession) -> JSONValue {
        var members = session.pluginSessionViewMembers
        let state = session.withState { $0 }
        if let last = state.last { members.append(JSONMember("last", last)) }
        let variables = state.variables.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) }
        members.append(JSONMember("variables", .object(variables)))
        return .object(members)
    }

    /// A reply line read: the message's id and type, and the whole object.
    struct Reply: Sendable, Equatable {
        /// The request id it answers.
        var id: Int
        /// `hello`, `result` or `error`.
        var type: String
        /// The whole message.
        var message: JSONValue
    }

    /// Reads one line from a plugin.
    /// - Throws: ``PluginFault/notJSON(plugin:line:)`` when it is not a JSON object,
    ///   ``PluginFault/badMessage(plugin:reason:)`` for a missing or bad `id` or `type`.
    static func reply(from line: String, plugin: String) throws(PluginFault) -> Reply {
        guard let message = try? JSONValue(parsing: line), case .object = message else {
            throw .notJSON(plugin: plugin, line: line)
        }
        guard let idValue = message["id"] else { throw .badMessage(plugin: plugin, reason: "missing \"id\"") }
        guard case .number(let number) = idValue, let id = Int(number.text) else {
            throw .badMessage(plugin: plugin, reason: "\"id\" must be an integer, got \(idValue.compactText)")
        }
        guard let type = message["type"]?.stringValue else {
            throw .badMessage(plugin: plugin, reason: "missing \"type\" in the reply to request \(id)")
        }
        guard replyTypes.contains(type) else {
            throw .badMessage(plugin: plugin, reason: "unknown message type '\(type)'")
        }
        return Reply(id: id, type: type, message: message)
    }
}
