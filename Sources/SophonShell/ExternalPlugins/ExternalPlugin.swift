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

/// What the shell's listings (`plugins`, `help`, Tab) read of the external plugins.
extension ExternalPluginHost {
    /// The plugins that completed a handshake, in order, as ``ShellPlugin`` values.
    func startedPlugins() -> [ExternalPlugin] {
        let entries = state.withLock { $0.entries }
        var taken = builtInNames
        var plugins: [ExternalPlugin] = []
        for entry in entries {
            guard let manifest = entry.manifest else { continue }
            var commands: [PluginCommand] = []
            var hidden: [String] = []
            for command in manifest.commands {
                guard !taken.contains(command.name) else {
                    hidden.append(command.name)
                    continue
                }
                taken.insert(command.name)
                commands.append(pluginCommand(command, plugin: entry.name))
            }
            plugins.append(
                ExternalPlugin(
                    name: entry.name, version: manifest.version, path: entry.path, commands: commands,
                    hiddenCommands: hidden))
        }
        return plugins
    }

    /// One line per external plugin for `plugins`: started ones with their commands, the
    /// others as `not started` with the reason when starting failed.
    func listing() -> [String] {
        let started = Dictionary(
            startedPlugins().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return state.withLock { $0.entries }.map { entry in
            if let plugin = started[entry.name] { return plugin.listing }
            return "\(entry.name) (external, \(entry.path)): "
                + (entry.startError.map { "failed to start: \($0)" } ?? "not started")
        }
    }

    /// The long help text of an external command, or `nil`.
    func helpText(for command: String) -> String? {
        let manifests = state.withLock { $0.entries.compactMap(\.manifest) }
        for manifest in manifests {
            guard let found = manifest.commands.first(where: { $0.name == command }) else { continue }
            let help =
                found.help.hasPrefix(found.summary)
                ? found.help.dropFirst(found.summary.count) : Substring(found.help)
            let rest = help.drop { $0 == "\n" }
            return rest.isEmpty ? nil : String(rest)
        }
        return nil
    }

    /// Command names for Tab: commands of started plugins, and names of plugins not started
    /// (searching the folders again, so a plugin installed meanwhile is offered).
    func completionNames() -> [String] {
        refresh()
        let started = startedPlugins()
        let waiting = state.withLock { $0.entries.filter { $0.manifest == nil }.map(\.name) }
        return started.flatMap { $0.commands.map(\.name) } + waiting
    }

    /// The static completions a started plugin declared for `command`, or `nil`.
    func completions(for command: String) -> [String]? {
        let manifests = state.withLock { $0.entries.compactMap(\.manifest) }
        return manifests.lazy.compactMap { $0.commands.first { $0.name == command }?.completions }.first
    }

    /// The names of the external plugins, discovered or loaded (for `plugin unload` completion).
    var pluginNames: [String] {
        refresh()
        return state.withLock { $0.entries.map(\.name) }
    }
}

/// Tab completion for external plugins' arguments and for `plugin`.
enum ExternalPluginCompletion {
    /// Candidates for the next word of a line whose words so far are `earlier` (the command
    /// first), or `nil` when external plugins have nothing to say about it.
    static func words(_ command: String, _ earlier: [String], host: ExternalPluginHost) -> [String]? {
        if command == "plugin" {
            switch earlier.count {
            case 1: return ["load", "unload"]
            case 2 where earlier[1] == "unload": return host.pluginNames.sorted()
            default: return nil
            }
        }
        return host.completions(for: command)
    }
}
