import SophonCore

/// `set`, `show` and `let`: the session's settings and variables.
enum SessionCommands {
    static func set(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard request.arguments.count >= 2 else {
            throw context.usageFailure("set")
        }
        let name = request.arguments[0]
        if let result = try context.registry.set(name, Array(request.arguments.dropFirst()), context: context)
        {
            return result
        }
        let words = Array(request.arguments.dropFirst())
        try context.session.withState { state in try state.settings.set(name, words: words) }
        return .none
    }

    static func show(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let settings = context.session.settings
        switch request.arguments.count {
        case 0:
            return .text(
                ShellSettings.names.map { name in
                    "\(name): \((try? settings.value(of: name)) ?? "")"
                }.joined(separator: "\n"))
        case 1:
            if let result = context.registry.show(request.arguments[0], context: context) { return result }
            return .text(try settings.value(of: request.arguments[0]))
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
