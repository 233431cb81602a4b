import Foundation
import SophonCore

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// One connection to one of Sophon's SQLite files (`logs.db`, `embeddings.db`), opened the one
/// way both stores need (docs/logs.md, "Storage"): the file private (`0600`, its folder `0700`,
/// ``PrivateFiles``), WAL journal mode with a busy timeout so several shells write at once, the
/// schema version in `PRAGMA user_version` brought up by migrations in one transaction, and a
/// file SQLite finds corrupt (or not a database) moved aside to `NAME.corrupt-UNIXTIME` with its
/// `-wal` and `-shm`, never overwritten.
///
/// Opened in SQLite's serialized mode (`SQLITE_OPEN_FULLMUTEX`): calls from several threads are
/// safe. Failures are ``LogStoreError/sqlite(path:step:message:)`` naming the file and the step.
final class SQLiteDatabase: @unchecked Sendable {
    /// How long a write waits for another process's lock, in milliseconds.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// The database file.
    let path: String
    /// Where a corrupt database was moved to when this connection was opened; `nil` if none was.
    private(set) var movedAside: String?
    private let schemaVersion: Int
    private let migrations: [[String]]
    private(set) var handle: OpaquePointer?

    /// Opens (creating or migrating) the database at `path`; its folder is created if missing.
    /// - Parameters:
    ///   - schemaVersion: the version this code writes.
    ///   - migrations: `migrations[n]` takes the schema from version n to n + 1.
    /// - Throws: ``LogStoreError`` when SQLite cannot open or set up the file, or the file was
    ///   made by a newer schema.
    init(path: String, schemaVersion: Int, migrations: [[String]]) throws {
        self.path = path
        self.schemaVersion = schemaVersion
        self.migrations = migrations
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
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
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
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard status == SQLITE_OK else { throw failure("open") }
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // The first read of the header: a file that is not a database fails here.
        let version = try integer("PRAGMA user_version")
        if version > schemaVersion {
            throw LogStoreError.newerSchema(path: path, version: version, known: schemaVersion)
        }
        // Version 0 with tables: another program's database at this path. Migrating would fail
        // on a table that exists (a message quoting half a CREATE TABLE) or mix our tables into
        // its file; it is refused before WAL mode touches its header. One statement reads both,
        // so a database another shell is creating (tables and version in one transaction) is
        // never taken for one.
        if version == 0, schemaVersion > 0,
            try integer(
                "SELECT (SELECT count(*) FROM sqlite_master) * (user_version = 0) FROM pragma_user_version")
                > 0
        {
            throw LogStoreError.foreignDatabase(path: path)
        }
        // Turning WAL on takes an exclusive lock, and SQLite answers SQLITE_BUSY at once, without
        // the busy handler, while another connection is opening the same new file (two shells
        // starting together): retried for the busy timeout.
        try executeRetryingBusy("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        if version < schemaVersion { try migrate() }
    }

    /// Brings the schema to the current version in one write transaction (another process may
    /// be migrating at the same time: the version is read again under the lock).
    private func migrate() throws {
        try transaction {
            var version = try integer("PRAGMA user_version")
            while version < schemaVersion {
                for statement in migrations[version] { try execute(statement) }
                version += 1
            }
            try execute("PRAGMA user_version = \(version)")
        }
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` ... `COMMIT`), rolled back when
    /// it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Statements

    /// A value bound to a `?` of a statement.
    enum Binding {
        case integer(Int64)
        case real(Double)
        case text(String?)
        case blob(Data)
    }

    /// Prepares `sql` with `bindings` bound in order; the caller finalizes it.
    func prepare(_ sql: String, _ bindings: [Binding] = []) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw failure(String(sql.prefix(40)))
        }
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .integer(let value): sqlite3_bind_int64(statement, index, value)
            case .real(let value): sqlite3_bind_double(statement, index, value)
            case .text(let value?):
                sqlite3_bind_text(statement, index, value, Int32(clamping: value.utf8.count), Self.transient)
            case .text(nil): sqlite3_bind_null(statement, index)
            case .blob(let data):
                _ = data.withUnsafeBytes { raw in
                    sqlite3_bind_blob(
                        statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                        Int32(data.count),
                        Self.transient)
                }
            }
        }
        return statement
    }

    /// Runs `sql` with `bindings` to the end (an insert, update or delete).
    /// - Returns: the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ bindings: [Binding]) throws -> Int {
        let statement = try prepare(sql, bindings)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(String(sql.prefix(40))) }
        return Int(sqlite3_changes(handle))
    }

    /// Calls `row` for each row of `sql` with `bindings`.
    func query(_ sql: String, _ bindings: [Binding] = [], row: (OpaquePointer?) throws -> Void) throws {
        let statement = try prepare(sql, bindings)
        defer { sqlite3_finalize(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure("query") }
            try row(statement)
        }
    }

    /// Runs statements without results (`sqlite3_exec`).
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw failure(String(sql.prefix(40)))
        }
    }

    /// ``execute(_:)``, tried again every 10 ms while SQLite answers busy or locked, for at
    /// most ``busyTimeoutMilliseconds``.
    private func executeRetryingBusy(_ sql: String) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(Self.busyTimeoutMilliseconds))
        while true {
            let status = sqlite3_exec(handle, sql, nil, nil, nil)
            if status == SQLITE_OK { return }
            let busy = status & 0xFF == SQLITE_BUSY || status & 0xFF == SQLITE_LOCKED
            guard busy, ContinuousClock.now < deadline else { throw failure(String(sql.prefix(40))) }
            usleep(10_000)
        }
    }

    /// The first column of the first row of `sql` as an integer.
    func integer(_ sql: String, _ bindings: [Binding] = []) throws -> Int {
        let statement = try prepare(sql, bindings)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(sql) }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// The row ID of the last insert on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Column `column` as text (by length: a text may hold NUL characters); `nil` for NULL.
    static func text(_ statement: OpaquePointer?, _ column: Int32) -> String? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL,
            let pointer = sqlite3_column_text(statement, column)
        else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `column` as an integer (0 for NULL).
    static func integer(_ statement: OpaquePointer?, _ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    /// Column `column` as a floating-point number; `nil` for NULL.
    static func real(_ statement: OpaquePointer?, _ column: Int32) -> Double? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        return sqlite3_column_double(statement, column)
    }

    /// Calls `body` with the bytes of blob column `column` (empty for NULL), without copying.
    static func withBlob<Result>(
        _ statement: OpaquePointer?, _ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let count = Int(sqlite3_column_bytes(statement, column))
        let pointer = sqlite3_column_blob(statement, column)
        return try body(UnsafeRawBufferPointer(start: count == 0 ? nil : pointer, count: count))
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound value.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The error of the last failed call, naming the file and `step`.
    func failure(_ step: String) -> LogStoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        return .sqlite(path: path, step: step, message: message)
    }
}
