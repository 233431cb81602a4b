import SophonCore

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
    /// - both: the text is printed and the value becomes `$last` without being printed.
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
        case (let text?, _): return .text(text)
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
