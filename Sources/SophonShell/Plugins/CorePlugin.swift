import SophonCore

/// The shell's own commands: `help` (more arrive with the REPL: `set`, `let`, `echo`, ...).
struct CorePlugin: ShellPlugin {
    let name = "core"

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "help", usage: "help [COMMAND]", summary: "list commands, or show how to use one",
                run: { request, context in
                    try CorePlugin.help(request.arguments, context: context)
                    return .none
                })
        ]
    }

    static func help(_ arguments: [String], context: CommandContext) throws {
        guard let name = arguments.first else {
            context.io.stdout.write(HelpText.commandList(context.registry))
            return
        }
        guard arguments.count == 1 else {
            throw CommandFailure(kind: "usage", message: "usage: help [COMMAND]")
        }
        guard let command = context.registry.command(named: name) else {
            throw context.registry.unknownCommand(name)
        }
        context.io.printLine("usage: \(command.usage)")
        context.io.printLine(command.summary)
    }
}
