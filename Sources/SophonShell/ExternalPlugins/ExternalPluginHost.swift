import Foundation
import SophonCore
import Synchronization

/// The external plugins of one shell run (docs/plugin-protocol.md):
/// those discovered on `PATH` and in the plugins folder, and those `plugin load` added.
///
/// The runtime consults the host when no built-in command has a name, so built-in commands
/// always win. A plugin starts on first use — a command the built-ins do not know starts the
/// plugin named like it first, then the other discovered plugins until one provides it — and
/// keeps running; one that crashed, broke the protocol or timed out starts again on next use.
/// `plugins` and `help` start every discovered plugin to list its commands.
final class ExternalPluginHost: Sendable {
    /// One plugin, discovered or loaded (read by the listings in ExternalPlugin.swift).
    struct Entry: Sendable {
        var name: String
        var path: String
        var loaded: Bool
        var manifest: PluginManifest?
        var connection: PluginConnection?
        var startError: String?
        /// Loaded with `plugin load --trust`: its tools run without asking.
        var trusted = false
    }

    /// The plugins and the names `plugin unload` removed.
    struct State: Sendable {
        var entries: [Entry] = []
        var unloaded: Set<String> = []
    }

    /// The longest a handshake may take, whatever the session's timeout.
    static let handshakeTimeout: Duration = .seconds(10)

    let state = Mutex(State())
    private let discovery: PluginDiscovery
    private let environment: [String: String]
    private let stderr: any ShellTextSink
    let builtInNames: Set<String>
    /// How long a plugin may take to answer a cancel before it is killed.
    let cancelGrace: Duration

    /// Creates a host; nothing is searched or started yet.
    /// - Parameters:
    ///   - builtInNames: the built-in command names (a plugin command with one is hidden).
    ///   - stderr: where plugin stderr lines (`NAME: line`) and warnings go.
    ///   - environment: passed to plugins, and read for `PATH` and the plugins folder.
    ///   - discovery: where to look; by default from `environment`.
    ///   - cancelGrace: how long a plugin may take to answer a cancel.
    init(
        builtInNames: [String], stderr: any ShellTextSink,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        discovery: PluginDiscovery? = nil,
        cancelGrace: Duration = .seconds(2)
    ) {
        self.builtInNames = Set(builtInNames)
        self.stderr = stderr
        self.environment = environment
        self.discovery = discovery ?? PluginDiscovery(environment: environment)
        self.cancelGrace = cancelGrace
    }

    deinit {
        for entry in state.withLock({ $0.entries }) { entry.connection?.stop() }
    }

    // MARK: - Lookup

    /// Whether `name` is the NAME of a discovered `sophon-plugin-NAME` (one-command mode uses
    /// it to tell `sophon csv` from a script file). Starts nothing.
    func isPluginName(_ name: String) -> Bool {
        refresh()
        return state.withLock { $0.entries.contains { $0.name == name } }
    }

    /// The command `name` of an external plugin, starting plugins as needed (see the type's
    /// documentation); `nil` when no plugin provides it.
    /// - Parameter timeout: the session's timeout (handshakes use at most 10 s).
    /// - Throws: the ``PluginFault`` of the plugin named `name` when it fails to start.
    func command(named name: String, timeout: Duration) async throws(PluginFault) -> PluginCommand? {
        if let command = startedPlugins().lazy.flatMap(\.commands).first(where: { $0.name == name }) {
            return command
        }
        refresh()
        let candidates: [Entry] = state.withLock { state in
            let waiting = state.entries.filter { $0.manifest == nil }
            return waiting.filter { $0.name == name }
                + waiting.filter { $0.name != name && $0.startError == nil }
        }
        for candidate in candidates {
            do {
                _ = try await start(candidate.name, timeout: timeout)
            } catch {
                if candidate.name == name { throw error }
                continue
            }
            if let command = startedPlugins().lazy.flatMap(\.commands).first(where: { $0.name == name }) {
                return command
            }
        }
        return nil
    }

    /// Starts every discovered plugin not started yet (for `plugins` and `help`); failures are
    /// kept for ``listing``, and a plugin that failed is not tried again here (only when a
    /// command of its name is used), so listings stay quick.
    func startAll(timeout: Duration) async {
        refresh()
        let waiting = state.withLock { $0.entries.filter { $0.manifest == nil && $0.startError == nil } }
        for name in waiting.map(\.name) {
            _ = try? await start(name, timeout: timeout)
        }
    }

    /// The tools of the started plugins, in plugin order: which plugin serves each.
    func pluginTools() -> [(plugin: String, tool: PluginManifest.Tool)] {
        state.withLock { $0.entries }.flatMap { entry in
            (entry.manifest?.tools ?? []).map { (plugin: entry.name, tool: $0) }
        }
    }

    /// Runs tool `name` of `plugin` (starting it again if it stopped): sends
    /// `{"type": "tool", "id", "name", "args"}` and reads `result` or `error`
    /// (docs/plugin-protocol.md).
    /// - Returns: the result value, or the error text (the plugin's message, or the fault: a
    ///   crash, garbage, a reply later than `timeout`).
    func runTool(plugin: String, name: String, arguments: JSONValue, timeout: Duration) async -> Result<
        JSONValue, PluginToolError
    > {
        do {
            let (connection, _) = try await start(plugin, timeout: timeout)
            let reply = try await connection.request(
                {
                    .object([
                        JSONMember("type", .string("tool")), JSONMember("id", .integer($0)),
                        JSONMember("name", .string(name)), JSONMember("args", arguments),
                    ])
                },
                purpose: .command(name), timeout: timeout, cancelGrace: cancelGrace)
            return Self.toolOutcome(type: reply.type, message: reply.message)
        } catch let fault as PluginFault {
            return .failure(PluginToolError(message: fault.message))
        } catch {
            return .failure(PluginToolError(message: "\(error)"))
        }
    }

    /// What a plugin's reply to a `tool` request means: an `error` reply, or a `result` reply
    /// that carries `error` and no `result` (or a null one), is the tool's error (its `message`, else its
    /// `error`: a string as is, an object's `message`, other JSON as compact text); otherwise
    /// the `result` value.
    static func toolOutcome(type: String, message: JSONValue) -> Result<JSONValue, PluginToolError> {
        let error = message["error"].flatMap { $0 == .null ? nil : $0 }
        let result = message["result"].flatMap { $0 == .null ? nil : $0 }
        guard type == "error" || (error != nil && result == nil) else {
            return .success(message["result"] ?? .null)
        }
        let text =
            message["message"]?.stringValue ?? error?.stringValue ?? error?["message"]?.stringValue
            ?? error?.compactText ?? "the tool failed"
        return .failure(PluginToolError(message: text))
    }

    // MARK: - load / unload

    /// `plugin load [--trust] PATH`: starts the executable at `path` at once and adds it under
    /// the name its handshake gives, replacing a plugin of that name.
    /// - Parameter trusted: whether the model may run the plugin's tools without asking
    ///   (`--trust`; docs/plugin-protocol.md, "Tools").
    /// - Returns: the plugin's manifest.
    /// - Throws: ``PluginFault`` when the file is missing or not executable, or the start or
    ///   handshake fails.
    func load(path: String, timeout: Duration, trusted: Bool = false) async throws(PluginFault)
        -> PluginManifest
    {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .notFound("plugin load: no such file: \(path)")
        }
        guard PluginDiscovery.isExecutableFile(path) else {
            throw .notFound("plugin load: not an executable file: \(path)")
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let (connection, manifest) = try await handshake(
            label: PluginDiscovery.label(forPath: absolute), path: absolute, expectedName: nil,
            timeout: timeout)
        let replaced: PluginConnection? = state.withLock { state in
            let old = state.entries.firstIndex { $0.name == manifest.name }.flatMap {
                state.entries[$0].connection
            }
            state.entries.removeAll { $0.name == manifest.name }
            state.unloaded.remove(manifest.name)
            state.entries.append(
                Entry(
                    name: manifest.name, path: absolute, loaded: true, manifest: manifest,
                    connection: connection, trusted: trusted))
            return old
        }
        replaced?.stop()
        warnAboutHidden(manifest.name)
        return manifest
    }

    /// Whether the plugin `name` was loaded with `plugin load --trust`.
    func isTrusted(_ name: String) -> Bool {
        state.withLock { $0.entries.first { $0.name == name }?.trusted ?? false }
    }

    /// `plugin unload NAME`: stops the plugin and forgets it for the rest of the run (a
    /// discovered one is not discovered again).
    /// - Throws: ``PluginFault/notFound(_:)`` when no external plugin has that name.
    func unload(_ name: String) throws(PluginFault) {
        refresh()
        let removed: Entry? = state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.name == name }) else { return nil }
            state.unloaded.insert(name)
            return state.entries.remove(at: index)
        }
        guard let removed else {
            throw .notFound("plugin unload: no external plugin named '\(name)' (see 'plugins')")
        }
        removed.connection?.stop()
    }

    // MARK: - Calls

    /// Runs `command` of plugin `plugin`: starts it if needed, sends the call with the
    /// request's words and a view of the session, and applies the reply.
    /// - Throws: ``CommandFailure`` for a fault or an error reply; `CancellationError` on Ctrl-C.
    func call(plugin: String, command: String, request: CommandRequest, context: CommandContext)
        async throws -> CommandResult
    {
        let timeout = context.session.settings.timeout
        do {
            let (connection, manifest) = try await start(plugin, timeout: timeout)
            guard manifest.commands.contains(where: { $0.name == command }) else {
                throw PluginFault.badHandshake(plugin: plugin, reason: "it no longer provides '\(command)'")
            }
            let view = PluginProtocol.sessionView(context.session)
            let reply = try await connection.request(
                {
                    PluginProtocol.call(id: $0, command: command, arguments: request.arguments, session: view)
                },
                purpose: .command(command), timeout: timeout, cancelGrace: cancelGrace)
            return try PluginReplyApplier(plugin: plugin, command: command).apply(reply, to: context.session)
        } catch let fault as PluginFault {
            throw fault.failure
        }
    }

    // MARK: - Starting

    /// The running connection of `name` and its manifest, starting (or restarting) it first.
    private func start(_ name: String, timeout: Duration) async throws(PluginFault)
        -> (PluginConnection, PluginManifest)
    {
        guard let entry = state.withLock({ $0.entries.first { $0.name == name } }) else {
            throw .notFound("no external plugin named '\(name)'")
        }
        if let connection = entry.connection, connection.isUsable, let manifest = entry.manifest {
            return (connection, manifest)
        }
        let firstStart = entry.manifest == nil
        do {
            let (connection, manifest) = try await handshake(
                label: entry.name, path: entry.path, expectedName: entry.loaded ? nil : entry.name,
                timeout: timeout)
            let replaced: PluginConnection? = state.withLock { state in
                guard let index = state.entries.firstIndex(where: { $0.name == name }) else { return nil }
                let old = state.entries[index].connection
                state.entries[index].connection = connection
                state.entries[index].manifest = manifest
                state.entries[index].startError = nil
                return old
            }
            if let replaced, replaced !== connection { replaced.kill() }
            if firstStart { warnAboutHidden(name) }
            return (connection, manifest)
        } catch {
            state.withLock { state in
                if let index = state.entries.firstIndex(where: { $0.name == name }) {
                    state.entries[index].startError = error.message
                }
            }
            throw error
        }
    }

    /// Starts the executable and runs the handshake; kills the process when it fails.
    private func handshake(label: String, path: String, expectedName: String?, timeout: Duration)
        async throws(PluginFault) -> (PluginConnection, PluginManifest)
    {
        let connection = try PluginConnection(
            name: label, path: path, environment: environment, stderr: stderr)
        do {
            let reply = try await connection.request(
                { PluginProtocol.hello(id: $0) }, purpose: .handshake,
                timeout: min(timeout, Self.handshakeTimeout),
                cancelGrace: cancelGrace)
            switch reply.type {
            case "hello": break
            case "error":
                throw PluginFault.refused(
                    plugin: label, message: reply.message["message"]?.stringValue ?? reply.message.compactText
                )
            default:
                throw PluginFault.badHandshake(
                    plugin: label, reason: "expected a \"hello\" reply, got '\(reply.type)'")
            }
            let manifest = try PluginManifest(reply: reply.message, plugin: label)
            if let expectedName, manifest.name != expectedName {
                throw PluginFault.badHandshake(
                    plugin: label,
                    reason:
                        "it calls itself '\(manifest.name)' but its file is named sophon-plugin-\(expectedName)"
                )
            }
            return (connection, manifest)
        } catch {
            connection.kill()
            throw error as? PluginFault
                ?? .startFailed(plugin: label, reason: "interrupted during the handshake")
        }
    }

    /// Adds newly found executables (not unloaded, not known yet) as not-started entries.
    func refresh() {
        let found = discovery.scan()
        state.withLock { state in
            for (name, path) in found
            where !state.unloaded.contains(name) && !state.entries.contains(where: { $0.name == name }) {
                state.entries.append(Entry(name: name, path: path, loaded: false))
            }
        }
    }

    private func warnAboutHidden(_ name: String) {
        guard let plugin = startedPlugins().first(where: { $0.name == name }) else { return }
        for hidden in plugin.hiddenCommands {
            stderr.write(
                "warning: plugin '\(name)': command '\(hidden)' is hidden by another command of that name\n")
        }
    }

    func pluginCommand(_ command: PluginManifest.Command, plugin: String) -> PluginCommand {
        PluginCommand(
            name: command.name, usage: command.usage, summary: command.summary,
            run: { [self] request, context in
                try await call(plugin: plugin, command: command.name, request: request, context: context)
            })
    }
}

/// Why a plugin's tool call failed, as the text sent to the model in `{"error": ...}`.
struct PluginToolError: Error, Sendable {
    var message: String
}
