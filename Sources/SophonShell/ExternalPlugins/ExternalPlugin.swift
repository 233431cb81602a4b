/// A started external plugin as the shell's listings see it: a ``ShellPlugin`` like the
/// built-in ones, whose commands forward to the plugin process through the host.
struct ExternalPlugin: ShellPlugin {
    /// The name from its handshake.
    let name: String
    /// The version text from its handshake.
    let version: String
    /// The executable's path.
    let path: String
    /// The commands the shell dispatches to it (built-in names and names an earlier plugin
    /// took are left out).
    let commands: [PluginCommand]
    /// Commands it declared that another plugin's command hides.
    let hiddenCommands: [String]

    /// `csv 1.0.0 (external, /path/sophon-plugin-csv): csv, from-csv` for `plugins`.
    var listing: String {
        let title = version.isEmpty ? name : "\(name) \(version)"
        let names = commands.map(\.name) + hiddenCommands.map { "\($0) (hidden)" }
        return "\(title) (external, \(path)): "
            + (names.isEmpty ? "no commands" : names.joined(separator: ", "))
    }
}
