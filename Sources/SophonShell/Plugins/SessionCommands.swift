import SophonCore

/// `set`, `show` and `let`: the session's settings and variables.
enum SessionCommands {
    static func set(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard request.arguments.count >= 2 else {
            throw context.usageFailure("set")
        }
        return try context.registry.setSetting(
            request.arguments[0], Array(request.arguments.dropFirst()), context: context)
    }

    static func show(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        switch request.arguments.count {
        case 0:
            return context.registry.showAll(context: context)
        case 1:
            return try context.registry.showSetting(request.arguments[0], context: context)
        default:
            throw context.usageFailure("show")
        }
    }

    /// `let NAME = VALUE` by the rules of docs/language.md.
    static func assign(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard let assignment = request.parsed?.assignment else {
            throw context.usageFailure("let")
        }
        guard assignment.name != "last" else {
            throw CommandFailure(
                kind: .usage, message: "let: 'last' is set by commands and cannot be assigned")
        }
        let expander = ShellExpander(lookup: context.session.variable)
        let value: JSONValue
        do {
            value = try assignment.evaluate(expander: expander, parseJSON: ShellParser.strictJSON)
        } catch {
            throw CommandFailure(kind: error.kind, message: error.message)
        }
        context.session.withState { $0.variables[assignment.name] = value }
        return .none
    }
}
