import SophonCore

/// What a running command may ask of the shell running it (the runtime): its streams and
/// session, running a nested script, finding commands, and the services it offers
/// (``service(_:)``: ``PluginHosting``, the tool servers of MCP/ToolServers.swift). Plugins
/// see the runtime only through this protocol.
protocol CommandHost: AnyObject, Sendable {
    /// Standard streams.
    var io: ShellIO { get }
    /// How the shell was started.
    var mode: RunMode { get }
    /// The built-in plugins.
    var registry: PluginRegistry { get }
    /// The session's state.
    var session: ShellSession { get }
    /// Reads a secret (`key set`); `nil` when there is none.
    var readSecret: @Sendable (String) -> String? { get }

    /// Runs every command of `source` (`source FILE`), `depth` levels deep.
    func run(_ source: ShellSource, directory: String, depth: Int, recorded: Bool) async -> CommandFlow
    /// The command `name`: built-in first, else an external plugin's.
    func resolveCommand(named name: String) async throws -> PluginCommand
    /// Asks the user a question on the terminal and reads the answer (a served tool's consent,
    /// docs/commands.md "Tools"); `nil` when the run has no terminal to ask on (scripts, `-c`,
    /// pipes). The closure returns `nil` at end of input or after Ctrl-C (then the running
    /// command's task is cancelled).
    var readAnswer: (@Sendable (String) -> String?)? { get }
    /// The service of type `Service` the host offers (the tool servers of MCP/ToolServers.swift),
    /// or `nil`; plugins on top look their services up here, so the core does not name them.
    func service<Service>(_ type: Service.Type) -> Service?
}

extension CommandHost {
    /// By default there is no terminal to ask on.
    var readAnswer: (@Sendable (String) -> String?)? { nil }

    /// By default the host offers no services.
    func service<Service>(_ type: Service.Type) -> Service? { nil }

    /// The host's external plugins, if it has any.
    var pluginHosting: (any PluginHosting)? { service((any PluginHosting).self) }

    /// Every plugin, built-in and external (for `help`).
    func allPlugins() async -> PluginRegistry { await pluginHosting?.allPlugins() ?? registry }
    /// `plugins`: one line per plugin.
    func pluginListing() async -> String { await pluginHosting?.pluginListing() ?? registry.listing }
    /// The help an external plugin gives for its command `name`, if any.
    func externalHelp(for name: String) -> String? { pluginHosting?.externalHelp(for: name) }
    /// `plugin load PATH | plugin unload NAME`; a usage error without external plugins.
    func managePlugins(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        guard let hosting = pluginHosting else { throw context.usageFailure("plugin") }
        return try await hosting.managePlugins(request, context: context)
    }
}

/// External plugins as a service of the host (``CommandHost/service(_:)``): what `help`,
/// `plugins` and `plugin` ask of them (docs/plugin-protocol.md).
protocol PluginHosting: AnyObject, Sendable {
    /// Every plugin, built-in and external (for `help`).
    func allPlugins() async -> PluginRegistry
    /// `plugins`: one line per plugin.
    func pluginListing() async -> String
    /// The help an external plugin gives for its command `name`, if any.
    func externalHelp(for name: String) -> String?
    /// `plugin load PATH | plugin unload NAME`.
    func managePlugins(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult
}
