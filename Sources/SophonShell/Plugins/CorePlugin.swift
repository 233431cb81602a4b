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
                run: { request, context in try ExpectCommand.run(request, context: context) }),
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
        let settings = SettingsReference.helpRows(for: command.name, await context.runtime.allPlugins())
        return .text(
            ShellMessages.usage(command.usage) + "\n\(command.summary)" + optionRows(command) + settings
                + details)
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
    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let words = request.parsed?.arguments ?? ArraySlice(request.arguments.map { ShellWord.literal($0) })
        let expander = ShellExpander(lookup: context.session.variable)
        let outcome: ExpectOutcome
        do {
            let expression = try ExpectExpression.parse(words)
            outcome = try ExpectEvaluator.evaluate(expression, expander: expander) {
                validateLast(context)
            }
        } catch {
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

    /// `expect valid`: `$last` checked by the plugin that owns validation (the schema's).
    static func validateLast(_ context: CommandContext) -> ExpectOutcome {
        context.registry.expectValid(context: context)
            ?? .failed(message: "no schema is set; set one with 'schema SPEC'")
    }
}
