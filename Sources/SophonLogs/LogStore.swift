import Foundation
import SophonCore

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
    public static let schemaVersion = 2
    /// How long a write waits for another process's lock, in milliseconds.
    public static let busyTimeoutMilliseconds: Int32 = SQLiteDatabase.busyTimeoutMilliseconds

    /// The database file.
    public var path: String { database.path }
    /// Where a corrupt database was moved to when this store was opened; `nil` if none was.
    public var movedAside: String? { database.movedAside }
    private let database: SQLiteDatabase

    /// Opens (creating or migrating) the database at `path`; its folder is created if missing.
    /// - Throws: ``LogStoreError`` when SQLite cannot open or set up the file.
    public init(path: String) throws {
        database = try SQLiteDatabase(
            path: path, schemaVersion: Self.schemaVersion, migrations: Self.migrations)
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
        ],
        // 2: each exchange's cost in US dollars (NULL: unknown).
        ["ALTER TABLE exchanges ADD COLUMN cost REAL"],
    ]

    private static let columns =
        "id, time_ms, command, conversation, model, prompt, system, schema, settings, answer, prompt_tokens,"
        + " output_tokens, thoughts_tokens, total_tokens, duration_ms, error, media, turns, cost"

    /// Appends an entry (one transaction).
    /// - Returns: its row ID.
    @discardableResult
    public func append(_ entry: LogEntry) throws -> Int64 {
        let texts: [String?] = [
            entry.command, entry.conversationID, entry.model, entry.prompt, entry.systemInstruction,
            entry.schema, entry.settings, entry.answer,
        ]
        let counts = [
            entry.promptTokens, entry.outputTokens, entry.thoughtsTokens, entry.totalTokens,
            entry.durationMilliseconds,
        ]
        let bindings: [SQLiteDatabase.Binding] =
            [.integer(Int64((entry.time.timeIntervalSince1970 * 1000).rounded()))] + texts.map { .text($0) }
            + counts.map { .integer(Int64($0)) } + [
                .text(entry.error), .text(entry.media), .text(entry.turns),
                entry.cost.map { .real($0) } ?? .text(nil),
            ]
        try database.run(
            "INSERT INTO exchanges(\(Self.columns.dropFirst(4))) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            bindings)
        return database.lastInsertRowID
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
    public func count() throws -> Int { try database.integer("SELECT count(*) FROM exchanges") }

    /// The schema version of the open database.
    public func version() throws -> Int { try database.integer("PRAGMA user_version") }

    /// The journal mode of the open database (`wal`).
    public func journalMode() throws -> String {
        var mode = ""
        try database.query("PRAGMA journal_mode") { mode = SQLiteDatabase.text($0, 0) ?? "" }
        return mode
    }

    private func entries(_ sql: String, bindings: [SQLiteDatabase.Binding]) throws -> [LogEntry] {
        var result: [LogEntry] = []
        try database.query(sql, bindings) { statement in
            func int(_ column: Int32) -> Int { Int(SQLiteDatabase.integer(statement, column)) }
            func text(_ column: Int32) -> String? { SQLiteDatabase.text(statement, column) }
            var entry =
                LogEntry(
                    id: SQLiteDatabase.integer(statement, 0),
                    time: Date(timeIntervalSince1970: Double(SQLiteDatabase.integer(statement, 1)) / 1000),
                    command: text(2) ?? "", conversationID: text(3), model: text(4) ?? "",
                    prompt: text(5) ?? "",
                    systemInstruction: text(6), schema: text(7), settings: text(8), answer: text(9),
                    promptTokens: int(10), outputTokens: int(11), thoughtsTokens: int(12),
                    totalTokens: int(13),
                    durationMilliseconds: int(14), error: text(15), media: text(16), turns: text(17))
            entry.cost = SQLiteDatabase.real(statement, 18)
            result.append(entry)
        }
        return result
    }
}

/// One logged Gemini exchange (docs/logs.md): what was asked, how, and what came back.
/// Never holds a key: the caller logs the prompt and settings, not the request headers or URL.
public struct LogEntry: Sendable, Equatable {
    /// The row ID, assigned by the store; `nil` before ``LogStore/append(_:)``.
    public var id: Int64?
    /// When the exchange started.
    public var time: Date
    /// The command that made it: `ask`, `chat`, `run`.
    public var command: String
    /// The chat conversation it belongs to; `nil` for a lone `ask`.
    public var conversationID: String?
    /// The model that answered (or was asked, when the call failed).
    public var model: String
    /// The prompt text.
    public var prompt: String
    /// The system instruction, if any.
    public var systemInstruction: String?
    /// The response schema as JSON text, if one was in force.
    public var schema: String?
    /// The generation settings as JSON text (`temperature`, `maxTokens`, `thinking`, `stream`).
    public var settings: String?
    /// The answer: text, or JSON text for a structured call; `nil` when the call failed.
    public var answer: String?
    /// Prompt tokens (`usageMetadata.promptTokenCount`).
    public var promptTokens: Int
    /// Output tokens (`usageMetadata.candidatesTokenCount`).
    public var outputTokens: Int
    /// Thinking tokens (`usageMetadata.thoughtsTokenCount`).
    public var thoughtsTokens: Int
    /// Total tokens (`usageMetadata.totalTokenCount`).
    public var totalTokens: Int
    /// Wall time of the call, in milliseconds.
    public var durationMilliseconds: Int
    /// The error message when the call failed.
    public var error: String?
    /// Attached media as JSON text: `[{"mimeType":…,"sha256":…,"bytes":…}]`; never the bytes.
    public var media: String?
    /// The user and model turns of the exchange as Gemini `Content` JSON (thought signatures
    /// kept, media replaced by their hash), for `chat --continue`.
    public var turns: String?
    /// What the exchange cost in US dollars (docs/cost.md); `nil` when unknown (a model without
    /// a price, an exchange logged before costs were).
    public var cost: Double?

    /// An entry; every optional member defaults to absent and every count to zero.
    public init(
        id: Int64? = nil, time: Date, command: String, conversationID: String? = nil, model: String,
        prompt: String, systemInstruction: String? = nil, schema: String? = nil, settings: String? = nil,
        answer: String? = nil, promptTokens: Int = 0, outputTokens: Int = 0, thoughtsTokens: Int = 0,
        totalTokens: Int = 0, durationMilliseconds: Int = 0, error: String? = nil, media: String? = nil,
        turns: String? = nil
    ) {
        self.id = id
        self.time = time
        self.command = command
        self.conversationID = conversationID
        self.model = model
        self.prompt = prompt
        self.systemInstruction = systemInstruction
        self.schema = schema
        self.settings = settings
        self.answer = answer
        self.promptTokens = promptTokens
        self.outputTokens = outputTokens
        self.thoughtsTokens = thoughtsTokens
        self.totalTokens = totalTokens
        self.durationMilliseconds = durationMilliseconds
        self.error = error
        self.media = media
        self.turns = turns
    }
}

/// Why a SQLite store failed (`logs.db`, docs/logs.md; `embeddings.db`, docs/embeddings.md).
public enum LogStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite failed: the path, the step, and SQLite's message.
    case sqlite(path: String, step: String, message: String)
    /// `logs show ID` of an ID with no entry.
    case noSuchEntry(id: Int64)
    /// The database was made by a newer Sophon: its schema version, and the newest this one
    /// knows.
    case newerSchema(path: String, version: Int, known: Int)
    /// A SQLite database with tables but no schema version: not one Sophon made.
    case foreignDatabase(path: String)

    /// The message, naming the file and the SQLite step that failed.
    public var description: String {
        switch self {
        case .sqlite(let path, let step, let message): "\(path): \(step): \(message)"
        case .noSuchEntry(let id): "no log entry \(id)"
        case .newerSchema(let path, let version, let known):
            "\(path): schema version \(version) is newer than this sophon knows (\(known))"
        case .foreignDatabase(let path):
            "\(path): a SQLite database Sophon did not make (tables, no schema version); "
                + "move it away and Sophon starts a new one"
        }
    }
}
