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
                name: "logs",
                usage: "logs [-n N] [--json] [--html FILE] | logs search TEXT [-n N] | logs show ID",
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

/// `logs [-n N] [--json]`, `logs search TEXT`, `logs show ID` (docs/logs.md).
enum LogsCommand {
    /// How many entries `logs` lists without `-n`.
    static let defaultCount = 20

    /// The options of `logs`.
    static let declared = [
        CommandOption(
            name: "-n", value: "N", help: "list the newest N (20)", missing: "a positive whole number"),
        CommandOption(name: "--json", help: "JSON: an array of entries (one object for logs show)"),
        CommandOption(
            name: "--html", value: "FILE", help: "also write the entries as a self-contained HTML report",
            missing: "a file name"),
    ]

    static func run(_ request: CommandRequest, context: CommandContext, plugin: LogPlugin) throws
        -> CommandResult
    {
        let parsed = try CommandOption.parse(request, command: "logs", declared: declared)
        let json = parsed.has("--json") || context.session.settings.output == .json
        var count = defaultCount
        if let value = parsed.value("-n") {
            guard let number = Int(value), number > 0 else {
                throw CommandFailure(kind: .usage, message: "logs: -n needs a positive whole number")
            }
            count = number
        }
        var rest = parsed.operands
        let mode = rest.first.flatMap { ["search", "show"].contains($0) ? $0 : nil } ?? "list"
        if mode != "list" { rest.removeFirst() }
        if mode == "list", let word = rest.first {
            throw OptionError.unknown(word, among: declared.map(\.name)).failure(command: "logs")
        }
        if let given = parsed.value("--html") {
            guard mode != "show" else {
                throw CommandFailure(
                    kind: .usage, message: "logs show: --html goes with logs and logs search")
            }
            let html = try OutputFolder.requireWritable(
                given, option: "--html", command: "logs", resolve: context.resolve)
            let entries = try plugin.withStore(io: context.io) { store in
                try mode == "search"
                    ? store.search(rest.joined(separator: " "), limit: count) : store.recent(limit: count)
            }
            try LogEntryView.page(entries).write(to: html, command: "logs")
        }
        return try plugin.withStore(io: context.io) { try query($0, mode, rest, count, json) }
    }

    private static func query(_ store: LogStore, _ mode: String, _ rest: [String], _ count: Int, _ json: Bool)
        throws -> CommandResult
    {
        do {
            switch mode {
            case "search":
                let text = rest.joined(separator: " ")
                guard !text.isEmpty else {
                    throw CommandFailure(kind: .usage, message: "logs search: needs TEXT")
                }
                return list(try store.search(text, limit: count), json: json, empty: "(no log entry matches)")
            case "show":
                guard rest.count == 1, let id = Int64(rest[0]), id > 0 else {
                    throw CommandFailure(
                        kind: .usage, message: "logs show: needs one entry ID (a whole number)")
                }
                let entry = try store.entry(id: id)
                return json ? .value(LogEntryView.object(entry)) : .text(LogEntryView.details(entry))
            default:
                return list(try store.recent(limit: count), json: json, empty: "(no exchanges logged yet)")
            }
        } catch let error as LogStoreError {
            if case .noSuchEntry = error {
                throw CommandFailure(kind: .usage, message: "logs show: \(error)")
            }
            throw CommandFailure(kind: .fileError, message: "logs: \(error)")
        }
    }

    private static func list(_ entries: [LogEntry], json: Bool, empty: String) -> CommandResult {
        if json { return .value(.array(entries.map(LogEntryView.object))) }
        guard !entries.isEmpty else { return .text(empty) }
        return .text(entries.map(LogEntryView.line).joined(separator: "\n"))
    }

    /// Opens the store, warning on stderr when a corrupt database was moved aside.
    /// - Throws: ``CommandFailure`` (`fileError`) when SQLite cannot open it, or when `path` is
    ///   not a regular file (a FIFO would block).
    static func open(_ path: String, io: ShellIO) throws -> LogStore {
        if let problem = ImplicitFile.problem(path, role: "log database") {
            // SQLite would block reading a FIFO (docs/files.md, "Files the shell reads").
            throw CommandFailure(kind: .fileError, message: "logs: " + problem)
        }
        do {
            let store = try LogStore(path: path)
            if let moved = store.movedAside {
                io.printError(
                    ShellMessages.warning("\(path) was corrupt: moved it to \(moved) and started a new log"))
            }
            return store
        } catch let error as LogStoreError {
            throw CommandFailure(kind: .fileError, message: "logs: \(error)")
        } catch {
            throw CommandFailure(kind: .fileError, message: "logs: \(path): \(error.localizedDescription)")
        }
    }
}
