/// The plugins loaded in this shell and the command table built from them.
struct PluginRegistry: Sendable {
    /// Plugins in registration order.
    private(set) var plugins: [any ShellPlugin] = []
    private var commandsByName: [String: PluginCommand] = [:]

    /// Adds `plugin`; a command name already taken keeps its first owner.
    mutating func register(_ plugin: any ShellPlugin) {
        plugins.append(plugin)
        for command in plugin.commands where commandsByName[command.name] == nil {
            commandsByName[command.name] = command
        }
    }

    /// The grammar the parser needs: the prompt-like commands and their options.
    var grammar: ShellGrammar {
        var grammar = ShellGrammar()
        for plugin in plugins {
            for command in plugin.commands {
                if case .raw(let spec) = command.argumentStyle, grammar.rawCommands[command.name] == nil {
                    grammar.rawCommands[command.name] = spec
                }
            }
        }
        return grammar
    }

    /// The command named `name`, if a plugin provides it.
    func command(named name: String) -> PluginCommand? { commandsByName[name] }

    /// Every command name, in plugin and declaration order.
    var commandNames: [String] { plugins.flatMap { $0.commands.map(\.name) } }

    /// The error for an unknown command, with "did you mean" suggestions.
    func unknownCommand(_ name: String) -> CommandFailure {
        // A long "name" (a whole line of data run as a script) is shown cut, not echoed whole.
        let shown = name.count > 64 ? name.prefix(64) + "…" : Substring(name)
        var message = "unknown command '\(shown)'"
        let suggestions = Suggestions.closest(to: name, in: commandNames)
        if let first = suggestions.first { message += "; did you mean '\(first)'?" }
        return CommandFailure(kind: "unknownCommand", message: message + " (see 'help')")
    }

    /// The registry with the built-in plugins: core, json and gemini (whose commands need the
    /// run's `services`; `nil` is enough for reading the command line).
    static func standard(gemini services: GeminiServices?) -> PluginRegistry {
        var registry = PluginRegistry()
        registry.register(CorePlugin())
        registry.register(JSONPlugin())
        registry.register(GeminiPlugin(services: services))
        return registry
    }
}
