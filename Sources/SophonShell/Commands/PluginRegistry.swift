import SophonCore

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
                if case .raw(var spec) = command.argumentStyle, grammar.rawCommands[command.name] == nil {
                    // The value options come from the command's declared options.
                    spec.valueOptions.formUnion(
                        command.options.filter { $0.value != nil }.flatMap(\.spellings))
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
        let message = "unknown command '\(ShellMessages.shown(name))'"
        // `judge` and `similar`-like words plugins add to `expect` are not commands of their own.
        if expectOperators.contains(name), !commandNames.contains(name) {
            return CommandFailure(
                kind: .unknownCommand,
                message: message + " ('\(name)' is an operator of expect: see 'help expect')")
        }
        guard let suggestion = Suggestions.closest(to: name, in: commandNames).first else {
            return CommandFailure(kind: .unknownCommand, message: message + " (see 'help')")
        }
        return CommandFailure(kind: .unknownCommand, message: message + ShellMessages.didYouMean(suggestion))
    }

    /// Starts every plugin for the run (in registration order; the first failure stops).
    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {
        for plugin in plugins { try plugin.start(options, io: io) }
    }

    /// Applies every plugin's defaults to a new session.
    func configure(_ session: ShellSession) {
        for plugin in plugins { plugin.configure(session) }
    }

    /// `set NAME WORDS...` by the plugin owning `name`; `nil` when none does.
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        for plugin in plugins {
            if let result = try plugin.set(name, words, context: context) { return result }
        }
        return nil
    }

    /// `show NAME` by the plugin owning `name`; `nil` when none does.
    func show(_ name: String, context: CommandContext) -> CommandResult? {
        plugins.lazy.compactMap { $0.show(name, context: context) }.first
    }

    /// `expect valid` by the first plugin that checks validity; `nil` when none does.
    func expectValid(context: CommandContext) -> ExpectOutcome? {
        plugins.lazy.compactMap { $0.expectValid(context: context) }.first
    }

    /// The `expect` operators plugins add, in registration order.
    var expectOperators: [String] { plugins.flatMap(\.expectOperators) }

    /// The plugin that owns `expect` operator `op`; `nil` when none does.
    func expectOperatorOwner(_ op: String) -> (any ShellPlugin)? {
        plugins.first { $0.expectOperators.contains(op) }
    }

    /// The values Tab offers after `option`, from the first plugin that has some.
    func optionValues(_ option: String) -> [String]? {
        plugins.lazy.compactMap { $0.optionValues(option) }.first
    }

    /// The names `show NAME` accepts beyond the settings (the settings table:
    /// ``SettingDefinition``, below).
    var reportNames: [String] { plugins.flatMap(\.reportNames) }

    /// The plugins' parts of the REPL banner.
    func bannerNotes(_ session: ShellSession) -> [String] { plugins.flatMap { $0.bannerNotes(session) } }

    /// `plugins` for the built-in plugins: one `NAME (built-in): COMMANDS` line each.
    var listing: String {
        plugins.map { plugin in
            "\(plugin.name) (built-in): " + plugin.commands.map(\.name).joined(separator: ", ")
        }.joined(separator: "\n")
    }
}

/// One setting of the one settings table (docs/commands.md): `set NAME`, `show NAME`, bare `show`,
/// Tab after `set` and "did you mean" all read the table the registry builds from the session's
/// own settings and those the plugins register (``ShellPlugin/settings``).
struct SettingDefinition: Sendable, Equatable {
    /// The name `set` and `show` take (`tool-confirm`).
    var name: String
    /// What Tab offers after `set NAME`; empty for nothing.
    var values: [String] = []
    /// The setting of the table this one is shown before (`output`: the Gemini plugin's
    /// `model` comes first, as docs/commands.md lists them); `nil` shows it after those
    /// registered before it.
    var before: String?
}

extension PluginRegistry {
    /// Every setting in `show` order: the session's (``ShellSettings/names``) with each
    /// plugin's, in registration order, placed before the setting its definition names
    /// (``SettingDefinition/before``) or at the end; a plugin naming a setting already in the
    /// table gives its values, not a second row.
    var settings: [SettingDefinition] {
        var table = ShellSettings.names.map {
            SettingDefinition(name: $0, values: ShellSettings.completions(for: $0))
        }
        for definition in plugins.flatMap(\.settings) {
            if let index = table.firstIndex(where: { $0.name == definition.name }) {
                table[index].values = definition.values
            } else if let before = definition.before,
                let index = table.firstIndex(where: { $0.name == before })
            {
                table.insert(definition, at: index)
            } else {
                table.append(definition)
            }
        }
        return table
    }

    /// The names of ``settings``, in `show` order.
    var settingNames: [String] { settings.map(\.name) }

    /// The values Tab offers for `set name`; `nil` for none or an unknown setting.
    func settingValues(_ name: String) -> [String]? {
        settings.first { $0.name == name }.flatMap { $0.values.isEmpty ? nil : $0.values }
    }

    /// `set NAME WORDS...`: by the plugin owning `name`, else in the session's settings.
    /// - Throws: the owner's ``CommandFailure`` (`invalidSetting`), or `unknownSetting` with the
    ///   closest name of the whole table.
    func setSetting(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult {
        if let result = try set(name, words, context: context) { return result }
        do {
            try context.session.withState { state in try state.settings.set(name, words: words) }
        } catch let failure as CommandFailure where failure.kind == .unknownSetting {
            throw unknownSetting(name)
        }
        return .none
    }

    /// `show NAME`: a plugin's setting or report, else the session's setting.
    /// - Throws: ``CommandFailure`` `unknownSetting` with the closest name of the whole table.
    func showSetting(_ name: String, context: CommandContext) throws -> CommandResult {
        if let result = show(name, context: context) { return result }
        do {
            return .text(try context.session.settings.value(of: name))
        } catch let failure as CommandFailure where failure.kind == .unknownSetting {
            throw unknownSetting(name)
        }
    }

    /// Bare `show`: `NAME: VALUE` for every setting of the table; with `--json`, an object of
    /// the values by name.
    func showAll(context: CommandContext) -> CommandResult {
        let session = context.session.settings
        let values = settingNames.map { name in
            let value: String
            if case .text(let text)? = show(name, context: context) {
                value = text
            } else {
                value = (try? session.value(of: name)) ?? ""
            }
            return (name, value)
        }
        return .report(
            values.map { "\($0): \($1)" }.joined(separator: "\n"),
            data: .object(values.map { JSONMember($0, .string($1)) }))
    }

    /// `unknown setting 'NAME'` with the closest name of the whole table.
    private func unknownSetting(_ name: String) -> CommandFailure {
        ShellSettings.unknown(name, among: settingNames + reportNames)
    }
}
