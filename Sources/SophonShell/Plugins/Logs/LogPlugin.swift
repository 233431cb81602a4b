import Foundation
import SophonCore
import SophonLogs
import Synchronization

/// The exchange log (docs/logs.md): `logs`, `set log on|off`, `show log`, and where
/// ``ExchangeLog`` writes (`logs.db` in the state folder).
final class LogPlugin: ShellPlugin {
    let name = "logs"
    /// `--no-log` and the database path, set by ``start(_:io:)``.
    private let run = Mutex<(noLog: Bool, path: String?)>((false, nil))
    /// The open store, kept for the run so each exchange costs one transaction, not an open.
    private let store = Mutex<LogStore?>(nil)

    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {
        let path = SophonPaths().stateFolder.appendingPathComponent("logs.db").path
        run.withLock { $0 = (options.noLog, path) }
    }

    /// The database file, once started.
    var path: String? { run.withLock { $0.path } }

    /// Runs `body` with the run's store, opening it first if needed (a warning on stderr when
    /// a corrupt database was moved aside).
    /// - Throws: ``CommandFailure`` (`fileError`) when it cannot be opened; what `body` throws.
    func withStore<Result>(io: ShellIO, _ body: (LogStore) throws -> Result) throws -> Result {
        guard let path else {
            throw CommandFailure(kind: .internalError, message: "logs: the log is not set up")
        }
        return try store.withLock { open in
            let current = try open ?? LogsCommand.open(path, io: io)
            open = current
            return try body(current)
        }
    }

    /// Whether the session logs its exchanges: `set log` if given, else not under `--no-log`.
    /// (Replayed exchanges are never logged: `ExchangeLog.logging(_:)` decides for them.)
    func isEnabled(_ context: CommandContext) -> Bool {
        let noLog = run.withLock { $0.noLog }
        return context.session.withLogState { $0.enabled } ?? !noLog
    }

    /// `set log on|off`.
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        guard name == "log" else { return nil }
        let value = words.first ?? ""
        guard let enabled = OnOff.parse(value) else {
            throw CommandFailure.invalidSetting("log", expected: "on or off", got: value)
        }
        context.session.withLogState { $0.enabled = enabled }
        return CommandResult.none
    }

    /// `show log`: on or off.
    func show(_ name: String, context: CommandContext) -> CommandResult? {
        guard name == "log" else { return nil }
        return .text(OnOff.text(isEnabled(context)))
    }

    /// `set log on|off`.
    var settings: [SettingDefinition] { [SettingDefinition(name: "log", values: ["on", "off"])] }

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "logs", usage: "logs [-n N] [--json] [--html FILE] | logs search TEXT | logs show ID",
                summary: "the logged Gemini exchanges: newest, a full-text search, or one in full",
                options: LogsCommand.declared,
                run: { [self] request, context in try LogsCommand.run(request, context: context, plugin: self)
                })
        ]
    }

    /// The log plugin of the context's registry.
    static func of(_ context: CommandContext) -> LogPlugin? {
        context.registry.plugins.lazy.compactMap { $0 as? LogPlugin }.first
    }
}

/// The log plugin's part of a session (docs/logs.md): whether exchanges are logged
/// (`set log on|off`, `--no-log`) and the ID of the chat conversation in progress.
struct LogSessionState: PluginSessionState {
    /// `set log off` turns logging off for this session; `nil` until set (then the run's
    /// `--no-log` decides).
    var enabled: Bool?
    /// The conversation `chat` turns are logged under; a new one starts with an empty
    /// conversation (the first `chat`, or after `reset`).
    var conversationID: String?
}

extension ShellSession {
    /// Runs `body` with exclusive access to the log plugin's state in this session.
    func withLogState<Result>(_ body: (inout LogSessionState) throws -> Result) rethrows -> Result {
        try withPluginState(LogSessionState.self, body)
    }
}
