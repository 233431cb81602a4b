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

/// Turns a plugin's reply to a call into the command's result (docs/plugin-protocol.md,
/// "Replies"): `variables` are set, `output` is printed, `value` becomes `$last`.
struct PluginReplyApplier: Sendable {
    /// The plugin's name, for messages.
    var plugin: String
    /// The command that was called.
    var command: String

    /// Applies `reply` to `session` and returns what the shell prints.
    ///
    /// - `value` alone: the value is printed in the output format and becomes `$last`.
    /// - `output` alone: the text is printed (one trailing newline dropped; an empty text
    ///   counts as none); `$last` stays.
    /// - both: the text is printed and the value becomes `$last` without being printed;
    ///   `--json` prints the value as the result (the data, not the text for people).
    /// - neither: nothing is printed (a state change).
    /// - Throws: ``PluginFault/commandFailed(command:message:)`` for an `error` reply,
    ///   ``PluginFault/badMessage(plugin:reason:)`` for ill-typed fields or a bad variable
    ///   name; nothing is changed then.
    func apply(_ reply: PluginProtocol.Reply, to session: ShellSession) throws(PluginFault) -> CommandResult {
        let message = reply.message
        switch reply.type {
        case "result": break
        case "error":
            guard let text = message["message"]?.stringValue else {
                throw bad("an \"error\" reply needs a \"message\" string")
            }
            throw .commandFailed(command: command, message: text)
        default:
            throw bad("answered a call with '\(reply.type)'")
        }
        var output: String?
        if let field = message["output"] {
            guard let text = field.stringValue else { throw bad("\"output\" must be a string") }
            let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
            output = text.isEmpty ? nil : trimmed
        }
        var variables: [JSONMember] = []
        if let field = message["variables"] {
            guard case .object(let members) = field else { throw bad("\"variables\" must be an object") }
            for member in members {
                guard Self.isVariableName(member.key), member.key != "last" else {
                    throw bad("cannot set variable '\(member.key)'")
                }
            }
            variables = members
        }
        let value = message["value"]
        session.withState { state in
            for member in variables { state.variables[member.key] = member.value }
            if output != nil, let value { state.last = value }
        }
        switch (output, value) {
        case (let text?, let value?): return .report(text, data: value)
        case (let text?, nil): return .text(text)
        case (nil, let value?): return .value(value)
        case (nil, nil): return .none
        }
    }

    /// Variable names: `[A-Za-z_][A-Za-z0-9_]*` (docs/language.md).
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_"
        }
    }

    private func bad(_ reason: String) -> PluginFault {
        .badMessage(plugin: plugin, reason: "\(reason) (reply to '\(command)')")
    }
}
