import Foundation
import SophonCore

/// The shell's own commands (docs/commands.md): help, settings, variables, expectations, scripts.
struct CorePlugin: ShellPlugin {
    let name = "core"
    /// Commands of plugins on top listed with the core ones, before `exit` (`test`).
    var more: [PluginCommand] = []

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "help", usage: "help [COMMAND]", summary: "list commands, or show how to use one",
                completion: .custom { earlier, registry in
                    earlier.isEmpty ? .words(registry.commandNames.sorted()) : .none
                },
                run: { request, context in try await CorePlugin.help(request.arguments, context: context) }),
            PluginCommand(
                name: "set", usage: "set KEY VALUE", summary: "change a setting (see 'show')",
                completion: .custom { earlier, registry in
                    switch earlier.count {
                    case 0: .words(registry.settingNames)
                    case 1: registry.settingValues(earlier[0]).map(ArgumentCompletion.words) ?? .none
                    default: .none
                    }
                },
                run: { request, context in try SessionCommands.set(request, context: context) }),
            PluginCommand(
                name: "show", usage: "show [KEY]", summary: "print the settings, or one of them",
                completion: .custom { earlier, registry in
                    earlier.isEmpty ? .words(registry.settingNames + registry.reportNames) : .none
                },
                run: { request, context in try SessionCommands.show(request, context: context) }),
            PluginCommand(
                name: "let", usage: "let NAME = VALUE",
                summary: "set a variable (JSON, a \"\"\" block or words)",
                run: { request, context in try SessionCommands.assign(request, context: context) }),
            PluginCommand(
                name: "echo", usage: "echo TEXT", summary: "print the words, joined by one space",
                run: { request, _ in .text(request.arguments.joined(separator: " ")) }),
            PluginCommand(
                name: "expect", usage: "expect A OP B | expect valid",
                summary: "check a value: == != < <= > >= contains matches", expandsArguments: false,
                run: { request, context in try await ExpectCommand.run(request, context: context) }),
            PluginCommand(
                name: "sleep", usage: "sleep DURATION", summary: "pause (500ms, 2s, 1m); Ctrl-C cancels",
                run: { request, context in try await ScriptCommands.sleep(request, context: context) }),
            PluginCommand(
                name: "source", usage: "source FILE",
                summary: "run a script (relative to this script's folder)",
                completion: .files,
                run: { request, context in try await ScriptCommands.source(request, context: context) }),
            PluginCommand(
                name: "save", usage: "save FILE", summary: "write this session's commands as a script",
                completion: .files,
                run: { request, context in try ScriptCommands.save(request, context: context) }),
            PluginCommand(
                name: "plugins", usage: "plugins", summary: "list the loaded plugins and their commands",
                run: { _, context in .text(await context.runtime.pluginListing()) }),
            PluginCommand(
                name: "plugin", usage: "plugin load [--trust] PATH | plugin unload NAME",
                summary: "start an external plugin from a file, or stop one",
                options: [CommandOption(name: "--trust", help: "its tools run without asking (load)")],
                completion: .custom { earlier, _ in
                    earlier == ["load"] || earlier == ["load", "--trust"] ? .files : .none
                },
                run: { request, context in try await context.runtime.managePlugins(request, context: context)
                }),
        ] + more + [
            PluginCommand(
                name: "exit", usage: "exit [N]", summary: "end the run (status N)",
                run: { request, _ in try ScriptCommands.exit(request) }),
            PluginCommand(
                name: "quit", usage: "quit", summary: "end the run",
                run: { request, _ in try ScriptCommands.exit(request) }),
        ]
    }

    static func help(_ arguments: [String], context: CommandContext) async throws -> CommandResult {
        guard let name = arguments.first else {
            return .text(String(HelpText.commandList(await context.runtime.allPlugins()).dropLast()))
        }
        guard arguments.count == 1 else {
            throw context.usageFailure("help")
        }
        let command = try await context.runtime.resolveCommand(named: name)
        let details = context.runtime.externalHelp(for: name).map { "\n\n" + $0 } ?? ""
        let plugins = await context.runtime.allPlugins()
        let settings = SettingsReference.helpRows(for: command.name, plugins)
        // `expect`'s operators include those plugins add (`similar`, `judge`).
        let operators = command.name == "expect" ? plugins.expectOperators.map { " " + $0 }.joined() : ""
        return .text(
            ShellMessages.usage(command.usage) + "\n\(command.summary)\(operators)" + optionRows(command)
                + settings + details)
    }

    /// The `options:` rows `help COMMAND` prints from the command's declared options; empty
    /// for a command without options.
    static func optionRows(_ command: PluginCommand) -> String {
        guard !command.options.isEmpty else { return "" }
        let width = (command.options.map(\.synopsis.count).max() ?? 0) + 2
        return "\noptions:"
            + command.options.map { option in
                "\n  " + option.synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + option.help
            }.joined()
    }
}

/// `expect A OP B` and `expect valid` (docs/language.md): counts toward the closing tally; a
/// failed or malformed expectation is a failed command. Never changes `$last`.
enum ExpectCommand {
    static func run(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        let words = request.parsed?.arguments ?? ArraySlice(request.arguments.map { ShellWord.literal($0) })
        let expander = ShellExpander(lookup: context.session.variable)
        let outcome: ExpectOutcome
        do {
            let expression = try ExpectExpression.parse(
                words, pluginOperators: context.registry.expectOperators)
            if case .plugin(let left, let op, let right) = expression,
                let owner = context.registry.expectOperatorOwner(op)
            {
                outcome = try await owner.expect(
                    op, left: try operand([left], expander),
                    right: try right.map { try expander.text(of: [$0]) },
                    context: context)
            } else {
                outcome = try ExpectEvaluator.evaluate(expression, expander: expander) {
                    validateLast(context)
                }
            }
        } catch let error as ExpectError {
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(error.message)")
        } catch let failure as CommandFailure where failure.kind == .usage {
            // A plugin expectation written wrong (a threshold outside 0...1, an empty rubric): a
            // usage error, nothing sent; malformed, it counts as a failed expectation too.
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .usage, message: "expect: \(failure.message)")
        } catch let failure as CommandFailure {
            // A plugin operator that could not check (no key, a failed call): a failed expectation.
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(failure.message)")
        } catch let error as ShellExpansionError {
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(error.message)")
        }
        switch outcome {
        case .passed:
            context.session.withState { $0.passed += 1 }
            return .none
        case .failed(let message):
            context.session.withState { $0.failed += 1 }
            throw CommandFailure(kind: .expectFailed, message: "expect: \(message)")
        }
    }

    private static func operand(_ words: [ShellWord], _ expander: ShellExpander) throws -> ExpectOperand {
        try ExpectEvaluator.operand(words, expander: expander)
    }

    /// `expect valid`: `$last` checked by the plugin that owns validation (the schema's).
    static func validateLast(_ context: CommandContext) -> ExpectOutcome {
        context.registry.expectValid(context: context)
            ?? .failed(message: "no schema is set; set one with 'schema SPEC'")
    }
}

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

/// `sleep`, `source`, `save`, `exit`/`quit`.
enum ScriptCommands {
    /// The deepest `source` nesting allowed.
    static let maximumSourceDepth = 16

    static func sleep(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        guard request.arguments.count == 1, let duration = DurationParser.parse(request.arguments[0]) else {
            throw context.usageFailure("sleep", hint: "for example 500ms, 2s, 1m")
        }
        try await Task.sleep(for: duration)
        return .none
    }

    static func exit(_ request: CommandRequest) throws -> CommandResult {
        switch request.arguments.count {
        case 0: return .exit(nil)
        case 1:
            guard let status = Int32(request.arguments[0]), (0...255).contains(status) else {
                throw CommandFailure(kind: .usage, message: "\(request.name): expected a status in 0...255")
            }
            return .exit(status)
        default:
            throw CommandFailure(kind: .usage, message: ShellMessages.usage("\(request.name) [N]"))
        }
    }

    static func source(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        guard request.arguments.count == 1 else {
            throw context.usageFailure("source")
        }
        guard context.depth < maximumSourceDepth else {
            throw CommandFailure(
                kind: .sourceTooDeep,
                message: "source: nested more than \(maximumSourceDepth) levels deep")
        }
        let path = context.resolve(request.arguments[0])
        let source: ShellSource
        do {
            source = try ScriptFile.load(path)
        } catch {
            throw CommandFailure(kind: .fileError, message: "source: \(error.message)")
        }
        let flow = await context.runtime.run(
            source, directory: ScriptFile.directory(of: path), depth: context.depth + 1, recorded: false)
        if case .stop(let status) = flow { return .exit(status) }
        return .none
    }

    static func save(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard request.arguments.count == 1 else {
            throw context.usageFailure("save")
        }
        let path = request.arguments[0]
        // `save ""` is no name (it resolved to the current folder), as `prompt save ""` says.
        guard !path.isEmpty else { throw CommandFailure(kind: .usage, message: "save: needs a file name") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(kind: .fileError, message: "save: '\(path)' is a directory")
        }
        try OutputFolder.require(path, command: "save")
        let commands = context.session.withState { $0.succeededCommands }
        let text = commands.map { $0 + "\n" }.joined()
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(kind: .fileError, message: "save: \(error)")
        }
        return .none
    }
}
