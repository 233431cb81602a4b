/// The settings as `help set`, `help show` and the man page list them, generated from the one
/// settings table (``PluginRegistry/settings``): every name, with the values Tab offers after
/// `set NAME` when there are some.
enum SettingsReference {
    /// The commands whose `help` lists the settings.
    static let commands: Set<String> = ["set", "show"]

    /// `(name, values)` for every setting, in `show` order; values joined by ` | `, empty when
    /// the setting takes free text or a number.
    static func rows(_ registry: PluginRegistry) -> [(name: String, values: String)] {
        registry.settings.map { ($0.name, $0.values.joined(separator: " | ")) }
    }

    /// The `settings:` rows `help COMMAND` adds for `set` and `show`; empty for other commands.
    static func helpRows(for command: String, _ registry: PluginRegistry) -> String {
        guard commands.contains(command) else { return "" }
        let rows = rows(registry)
        let width = (rows.map(\.name.count).max() ?? 0) + 2
        return "\nsettings:"
            + rows.map { row in
                let line =
                    "\n  " + row.name.padding(toLength: width, withPad: " ", startingAt: 0) + row.values
                return String(line.reversed().drop(while: { $0 == " " }).reversed())
            }.joined()
    }
}
