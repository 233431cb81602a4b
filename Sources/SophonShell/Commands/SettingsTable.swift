import SophonCore

/// One setting of the one settings table (PRODUCT §11): `set NAME`, `show NAME`, bare `show`,
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
        var table = ShellSettings.names.map { SettingDefinition(name: $0) }
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
