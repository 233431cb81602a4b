import Foundation
import SophonCore

/// How the runtime finds commands beyond the built-in registry: the external plugins.
extension ShellRuntime {
    /// The command `name`: built-in first, else an external plugin's (starting plugins as
    /// ``ExternalPluginHost/command(named:timeout:)`` describes).
    /// - Throws: ``CommandFailure`` `unknownCommand` with a "did you mean" suggestion drawn
    ///   from every known command, or the fault of a plugin named `name` that failed to start.
    func resolveCommand(named name: String) async throws -> PluginCommand {
        if let command = registry.command(named: name) { return command }
        do {
            if let command = try await externalPlugins.command(named: name, timeout: session.settings.timeout)
            {
                return command
            }
        } catch {
            throw error.failure
        }
        throw knownPlugins().unknownCommand(name)
    }

    /// The built-in plugins followed by the external plugins started so far, as one registry
    /// (for listings and suggestions). Starts nothing.
    func knownPlugins() -> PluginRegistry {
        var combined = registry
        for plugin in externalPlugins.startedPlugins() { combined.register(plugin) }
        return combined
    }

    /// Every plugin, built-in and external, after starting the discovered external plugins
    /// (for `help` and `plugins`).
    func allPlugins() async -> PluginRegistry {
        await externalPlugins.startAll(timeout: session.settings.timeout)
        return knownPlugins()
    }

    /// `plugins`: one line per plugin, built-in ones first, then external ones (started ones
    /// with their commands, others with why they are not running).
    func pluginListing() async -> String {
        await externalPlugins.startAll(timeout: session.settings.timeout)
        return ([registry.listing] + externalPlugins.listing()).joined(separator: "\n")
    }

    /// The help an external plugin gives for its command `name`, if any.
    func externalHelp(for name: String) -> String? { externalPlugins.helpText(for: name) }

    /// `plugin load PATH | plugin unload NAME`.
    func managePlugins(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        try await PluginManagementCommand.run(request, context: context, runtime: self)
    }

    /// The tools of the external plugins started so far.
    func pluginTools() -> [(plugin: String, tool: PluginManifest.Tool)] { externalPlugins.pluginTools() }

    /// Starts the discovered plugins, then the MCP servers not disabled (``ToolServers``).
    func startToolServers(timeout: Duration, check: @escaping MCPServerRegistry.ToolCheck) async {
        await externalPlugins.startAll(timeout: session.settings.timeout)
        await mcpServers?.startAll(timeout: timeout, check: check)
    }

    /// Whether `plugin` was loaded with `plugin load --trust`.
    func isPluginTrusted(_ plugin: String) -> Bool { externalPlugins.isTrusted(plugin) }

    /// Runs a plugin's tool (``ExternalPluginHost/runTool(plugin:name:arguments:timeout:)``).
    func runPluginTool(plugin: String, name: String, arguments: JSONValue, timeout: Duration) async -> Result<
        JSONValue, PluginToolError
    > {
        await externalPlugins.runTool(plugin: plugin, name: name, arguments: arguments, timeout: timeout)
    }
}

/// `plugin load PATH` and `plugin unload NAME` (docs/plugin-protocol.md), run by the runtime
/// for the core plugin's `plugin` command.
enum PluginManagementCommand {
    /// Runs `plugin load [--trust] PATH | unload NAME`. State changes print nothing on stdout;
    /// the REPL confirms on stderr.
    /// - Throws: ``CommandFailure``: `usage`, or the plugin's fault.
    static func run(_ request: CommandRequest, context: CommandContext, runtime: ShellRuntime) async throws
        -> CommandResult
    {
        let host = runtime.externalPlugins
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(
                request.arguments, declared: context.registry.command(named: "plugin")?.options ?? [])
        } catch {
            throw error.failure(command: "plugin")
        }
        let trusted = parsed.has("--trust")
        switch (parsed.operands.first, parsed.operands.count) {
        case ("load", 2):
            let path = context.resolve(parsed.operands[1])
            if !FileManager.default.fileExists(atPath: path),
                context.registry.plugins.contains(where: { $0.answersCalls(ofMissingPlugin: path) })
            {
                // A replay answers the plugin's tool calls from the tape: it need not be here
                // (docs/tapes.md).
                if context.mode == .interactive {
                    context.io.printError(
                        "plugin load: \(path) is not here; its tool calls are answered from the tape")
                }
                return .none
            }
            let manifest: PluginManifest
            do {
                manifest = try await host.load(
                    path: path, timeout: context.session.settings.timeout, trusted: trusted)
            } catch {
                throw error.failure
            }
            if context.mode == .interactive {
                let names = manifest.commands.map(\.name).joined(separator: ", ")
                context.io.printError("loaded plugin '\(manifest.name)' \(manifest.version): \(names)")
            }
            return .none
        case ("unload", 2) where !trusted:
            let name = parsed.operands[1]
            if context.registry.plugins.contains(where: { $0.name == name }) {
                throw CommandFailure(
                    kind: .usage, message: "plugin unload: '\(name)' is built in and cannot be unloaded")
            }
            do {
                try host.unload(name)
            } catch {
                throw error.failure
            }
            if context.mode == .interactive { context.io.printError("unloaded plugin '\(name)'") }
            return .none
        default:
            throw context.usageFailure("plugin")
        }
    }
}
