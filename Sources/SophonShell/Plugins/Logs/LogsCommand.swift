import Foundation
import SophonCore
import SophonLogs

/// `logs [-n N] [--json]`, `logs search TEXT`, `logs show ID` (docs/logs.md).
enum LogsCommand {
    /// How many entries `logs` lists without `-n`.
    static let defaultCount = 20

    /// The options of `logs`.
    static let declared = [
        CommandOption(
            name: "-n", value: "N", help: "list the newest N (20)", missing: "a positive whole number"),
        CommandOption(name: "--json", help: "one JSON object per entry"),
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
        if let html = parsed.value("--html") {
            guard mode != "show" else {
                throw CommandFailure(
                    kind: .usage, message: "logs show: --html goes with logs and logs search")
            }
            let entries = try plugin.withStore(io: context.io) { store in
                try mode == "search"
                    ? store.search(rest.joined(separator: " "), limit: count) : store.recent(limit: count)
            }
            try LogEntryView.page(entries).write(to: context.resolve(html), command: "logs")
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
