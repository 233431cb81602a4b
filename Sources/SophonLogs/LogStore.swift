import Foundation
import SophonCore

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The exchange log: one SQLite database (`logs.db` in the state folder), in WAL mode with a
/// busy timeout so several shells log at once, full-text search (FTS5) over prompts and answers,
/// and a schema version in `PRAGMA user_version` with migrations (docs/logs.md).
///
/// A database SQLite finds corrupt (or not a database at all) is moved aside to
/// `logs.db.corrupt-TIMESTAMP` and a fresh one made; it is never overwritten.
/// One store is one connection, opened in SQLite's serialized mode (`SQLITE_OPEN_FULLMUTEX`), so
/// calls from several threads are safe; the row ID `append` returns is exact only when appends
/// are not interleaved (callers keep one appender at a time).
public final class LogStore: @unchecked Sendable {
    /// The schema version this code writes (`PRAGMA user_version`).
    public static let schemaVersion = 1
    /// How long a write waits for another process's lock, in milliseconds.
    public static let busyTimeoutMilliseconds: Int32 = 10_000

    /// The database file.
    public let path: String
    /// Where a corrupt database was moved to when this store was opened; `nil` if none was.
    public private(set) var movedAside: String?
    private var database: OpaquePointer?

    /// Opens (creating or migrating) the database at `path`; its folder is created if missing.
    /// - Throws: ``LogStoreError`` when SQLite cannot open or set up the file.
    public init(path: String) throws {
        self.path = path
        try PrivateFiles.prepareFolder((path as NSString).deletingLastPathComponent)
        do {
            try open()
        } catch let error as LogStoreError where Self.isCorruption(error) {
            close()
            movedAside = try Self.moveAside(path)
            try open()
        }
    }

    deinit { close() }

    private func close() {
        if let database { sqlite3_close_v2(database) }
        database = nil
    }

    private static func isCorruption(_ error: LogStoreError) -> Bool {
        guard case .sqlite(_, _, let message) = error else { return false }
        return message.contains("not a database") || message.contains("malformed")
            || message.contains("corrupt")
    }

    /// Moves `path` (and its `-wal` and `-shm` files) to `path.corrupt-TIMESTAMP`.
    /// - Returns: the new path of the database file.
    private static func moveAside(_ path: String) throws -> String {
        let stamp = Int(Date().timeIntervalSince1970)
        var target = "\(path).corrupt-\(stamp)"
        var suffix = 1
        while FileManager.default.fileExists(atPath: target) {
            suffix += 1
            target = "\(path).corrupt-\(stamp)-\(suffix)"
        }
        try FileManager.default.moveItem(atPath: path, toPath: target)
        for extra in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + extra) {
            try? FileManager.default.moveItem(atPath: path + extra, toPath: target + extra)
        }
        return target
    }

    private func open() throws {
        // Private by default (PrivateFiles): the database is created 0600 before SQLite opens
        // it, because SQLite gives its `-wal` and `-shm` files the mode of the database file.
        PrivateFiles.prepareFile(path)
        for extra in ["-wal", "-shm"] { PrivateFiles.tightenFile(path + extra) }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        database = handle
        guard status == SQLITE_OK else { throw failure("open") }
        sqlite3_busy_timeout(database, Self.busyTimeoutMilliseconds)
        // The first read of the header: a file that is not a database fails here.
        let version = try integer("PRAGMA user_version")
        if version > Self.schemaVersion { throw LogStoreError.newerSchema(path: path, version: version) }
        // Turning WAL on takes an exclusive lock, and SQLite answers SQLITE_BUSY at once, without
        // the busy handler, while another connection is opening the same new file (two shells
        // starting together): retried for the busy timeout.
        try executeRetryingBusy("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        if version < Self.schemaVersion { try migrate() }
    }

    /// Brings the schema to ``schemaVersion`` in one write transaction (another process may be
    /// migrating at the same time: the version is read again under the lock).
    private func migrate() throws {
        try execute("BEGIN IMMEDIATE")
        do {
            var version = try integer("PRAGMA user_version")
            while version < Self.schemaVersion {
                for statement in Self.migrations[version] { try execute(statement) }
                version += 1
            }
            try execute("PRAGMA user_version = \(version)")
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `migrations[n]` takes the schema from version n to n + 1.
    private static let migrations: [[String]] = [
        [
            """
            CREATE TABLE exchanges(
                id INTEGER PRIMARY KEY,
                time_ms INTEGER NOT NULL,
                command TEXT NOT NULL,
                conversation TEXT,
                model TEXT NOT NULL,
                prompt TEXT NOT NULL,
                system TEXT,
                schema TEXT,
                settings TEXT,
                answer TEXT,
                prompt_tokens INTEGER NOT NULL DEFAULT 0,
                output_tokens INTEGER NOT NULL DEFAULT 0,
                thoughts_tokens INTEGER NOT NULL DEFAULT 0,
                total_tokens INTEGER NOT NULL DEFAULT 0,
                duration_ms INTEGER NOT NULL DEFAULT 0,
                error TEXT,
                media TEXT,
                turns TEXT)
            """,
            "CREATE INDEX exchanges_conversation ON exchanges(conversation, id)",
            """
            CREATE VIRTUAL TABLE exchanges_fts USING fts5(
                prompt, answer, content='exchanges', content_rowid='id')
            """,
            """
            CREATE TRIGGER exchanges_insert AFTER INSERT ON exchanges BEGIN
                INSERT INTO exchanges_fts(rowid, prompt, answer) VALUES (new.id, new.prompt, new.answer);
            END
            """,
            """
            CREATE TRIGGER exchanges_delete AFTER DELETE ON exchanges BEGIN
                INSERT INTO exchanges_fts(exchanges_fts, rowid, prompt, answer)
                VALUES ('delete', old.id, old.prompt, old.answer);
            END
            """,
        ]
    ]

    private static let columns =
        "id, time_ms, command, conversation, model, prompt, system, schema, settings, answer, prompt_tokens,"
        + " output_tokens, thoughts_tokens, total_tokens, duration_ms, error, media, turns"

    /// Appends an entry (one transaction).
    /// - Returns: its row ID.
    @discardableResult
    public func append(_ entry: LogEntry) throws -> Int64 {
        let statement = try prepare(
            "INSERT INTO exchanges(\(Self.columns.dropFirst(4))) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        defer { sqlite3_finalize(statement) }
        let texts: [String?] = [
            entry.command, entry.conversationID, entry.model, entry.prompt, entry.systemInstruction,
            entry.schema, entry.settings, entry.answer,
        ]
        sqlite3_bind_int64(statement, 1, Int64((entry.time.timeIntervalSince1970 * 1000).rounded()))
        for (offset, text) in texts.enumerated() { bind(text, statement, Int32(offset + 2)) }
        let counts = [
            entry.promptTokens, entry.outputTokens, entry.thoughtsTokens, entry.totalTokens,
            entry.durationMilliseconds,
        ]
        for (offset, count) in counts.enumerated() {
            sqlite3_bind_int64(statement, Int32(offset + 10), Int64(count))
        }
        bind(entry.error, statement, 15)
        bind(entry.media, statement, 16)
        bind(entry.turns, statement, 17)
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("insert") }
        return sqlite3_last_insert_rowid(database)
    }

    /// The newest `limit` entries, oldest first.
    public func recent(limit: Int) throws -> [LogEntry] {
        let rows = try entries(
            "SELECT \(Self.columns) FROM exchanges ORDER BY id DESC LIMIT ?",
            bindings: [.integer(Int64(limit))])
        return rows.reversed()
    }

    /// Entries whose prompt or answer contains every word of `text` (FTS5, words matched as
    /// tokens), oldest first, at most `limit`.
    public func search(_ text: String, limit: Int = 100) throws -> [LogEntry] {
        let words = text.split(whereSeparator: \.isWhitespace).map {
            "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        guard !words.isEmpty else { return [] }
        let rows = try entries(
            """
            SELECT \(Self.columns.split(separator: ", ").map { "exchanges.\($0)" }.joined(separator: ", "))
            FROM exchanges_fts JOIN exchanges ON exchanges.id = exchanges_fts.rowid
            WHERE exchanges_fts MATCH ? ORDER BY exchanges.id DESC LIMIT ?
            """,
            bindings: [.text(words.joined(separator: " ")), .integer(Int64(limit))])
        return rows.reversed()
    }

    /// The entry with row ID `id`.
    /// - Throws: ``LogStoreError/noSuchEntry(id:)`` when there is none.
    public func entry(id: Int64) throws -> LogEntry {
        let rows = try entries("SELECT \(Self.columns) FROM exchanges WHERE id = ?", bindings: [.integer(id)])
        guard let entry = rows.first else { throw LogStoreError.noSuchEntry(id: id) }
        return entry
    }

    /// The successful exchanges of the newest conversation, oldest first (for `--continue`);
    /// empty when no chat was logged.
    public func lastConversation() throws -> [LogEntry] {
        let latest = try entries(
            "SELECT \(Self.columns) FROM exchanges WHERE conversation IS NOT NULL ORDER BY id DESC LIMIT 1",
            bindings: [])
        guard let conversation = latest.first?.conversationID else { return [] }
        return try entries(
            "SELECT \(Self.columns) FROM exchanges WHERE conversation = ? AND error IS NULL ORDER BY id",
            bindings: [.text(conversation)])
    }

    /// The number of entries.
    public func count() throws -> Int { try integer("SELECT count(*) FROM exchanges") }

    /// The schema version of the open database.
    public func version() throws -> Int { try integer("PRAGMA user_version") }

    /// The journal mode of the open database (`wal`).
    public func journalMode() throws -> String {
        let statement = try prepare("PRAGMA journal_mode")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("PRAGMA journal_mode") }
        return Self.text(statement, 0) ?? ""
    }

    // MARK: - SQLite

    private enum Binding {
        case integer(Int64)
        case text(String)
    }

    private func entries(_ sql: String, bindings: [Binding]) throws -> [LogEntry] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for (offset, binding) in bindings.enumerated() {
            switch binding {
            case .integer(let value): sqlite3_bind_int64(statement, Int32(offset + 1), value)
            case .text(let value): bind(value, statement, Int32(offset + 1))
            }
        }
        var result: [LogEntry] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure("query") }
            func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
            result.append(
                LogEntry(
                    id: sqlite3_column_int64(statement, 0),
                    time: Date(timeIntervalSince1970: Double(sqlite3_column_int64(statement, 1)) / 1000),
                    command: Self.text(statement, 2) ?? "", conversationID: Self.text(statement, 3),
                    model: Self.text(statement, 4) ?? "", prompt: Self.text(statement, 5) ?? "",
                    systemInstruction: Self.text(statement, 6), schema: Self.text(statement, 7),
                    settings: Self.text(statement, 8), answer: Self.text(statement, 9), promptTokens: int(10),
                    outputTokens: int(11), thoughtsTokens: int(12), totalTokens: int(13),
                    durationMilliseconds: int(14), error: Self.text(statement, 15),
                    media: Self.text(statement, 16),
                    turns: Self.text(statement, 17)))
        }
        return result
    }

    private static func text(_ statement: OpaquePointer?, _ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL,
            let pointer = sqlite3_column_text(statement, column)
        else { return nil }
        // By length, not up to the first NUL: a prompt may hold NUL characters.
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func bind(_ text: String?, _ statement: OpaquePointer?, _ index: Int32) {
        guard let text else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_text(statement, index, text, Int32(clamping: text.utf8.count), Self.transient)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw failure(String(sql.prefix(40)))
        }
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw failure(String(sql.prefix(40)))
        }
    }

    /// ``execute(_:)``, tried again every 10 ms while SQLite answers busy or locked, for at
    /// most ``busyTimeoutMilliseconds``.
    private func executeRetryingBusy(_ sql: String) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.busyTimeoutMilliseconds))
        while true {
            let status = sqlite3_exec(database, sql, nil, nil, nil)
            if status == SQLITE_OK { return }
            let busy = status & 0xFF == SQLITE_BUSY || status & 0xFF == SQLITE_LOCKED
            guard busy, ContinuousClock.now < deadline else { throw failure(String(sql.prefix(40))) }
            usleep(10_000)
        }
    }

    private func integer(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(sql) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    private func failure(_ step: String) -> LogStoreError {
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        return .sqlite(path: path, step: step, message: message)
    }
}
