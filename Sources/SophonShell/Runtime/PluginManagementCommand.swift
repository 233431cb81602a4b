import Foundation

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
