import Foundation
import SophonCore

/// The embedding collections: one SQLite database (`embeddings.db` in the state folder), opened
/// as `logs.db` is (``SQLiteDatabase``: private file, WAL, busy timeout, corrupt file moved
/// aside; docs/embeddings.md).
///
/// A row is (collection, id, content hash, model, dimensions, vector as little-endian Float32
/// bytes, metadata JSON). A collection holds one model and one dimension: rows of another are
/// refused (``EmbeddingStoreError/mismatch(collection:storedModel:storedDimensions:model:dimensions:)``).
public final class EmbeddingStore: Sendable {
    /// The schema version this code writes (`PRAGMA user_version`).
    public static let schemaVersion = 1

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

    private static let migrations: [[String]] = [
        [
            """
            CREATE TABLE collections(
                name TEXT PRIMARY KEY,
                model TEXT NOT NULL,
                dimensions INTEGER NOT NULL,
                created_ms INTEGER NOT NULL)
            """,
            """
            CREATE TABLE embeddings(
                collection TEXT NOT NULL REFERENCES collections(name),
                id TEXT NOT NULL,
                content_hash TEXT NOT NULL,
                model TEXT NOT NULL,
                dimensions INTEGER NOT NULL,
                vector BLOB NOT NULL,
                metadata TEXT,
                updated_ms INTEGER NOT NULL,
                PRIMARY KEY(collection, id))
            """,
        ]
    ]

    /// The collection `name`, or `nil` when there is none.
    public func collection(named name: String) throws -> EmbeddingCollection? {
        try collections(where: "WHERE c.name = ?", [.text(name)]).first
    }

    /// Every collection, by name.
    public func collections() throws -> [EmbeddingCollection] {
        try collections(where: "", [])
    }

    private func collections(where clause: String, _ bindings: [SQLiteDatabase.Binding]) throws
        -> [EmbeddingCollection]
    {
        var result: [EmbeddingCollection] = []
        try database.query(
            """
            SELECT c.name, c.model, c.dimensions, (SELECT count(*) FROM embeddings e WHERE e.collection = c.name)
            FROM collections c \(clause) ORDER BY c.name
            """, bindings
        ) { row in
            result.append(
                EmbeddingCollection(
                    name: SQLiteDatabase.text(row, 0) ?? "", model: SQLiteDatabase.text(row, 1) ?? "",
                    dimensions: Int(SQLiteDatabase.integer(row, 2)),
                    count: Int(SQLiteDatabase.integer(row, 3))))
        }
        return result
    }

    /// The content hash stored for each ID of `collection` embedded with `model` (what
    /// `embed-multi` skips).
    public func storedHashes(collection: String, model: String) throws -> [String: String] {
        var hashes: [String: String] = [:]
        try database.query(
            "SELECT id, content_hash FROM embeddings WHERE collection = ? AND model = ?",
            [.text(collection), .text(model)]
        ) { row in
            hashes[SQLiteDatabase.text(row, 0) ?? ""] = SQLiteDatabase.text(row, 1) ?? ""
        }
        return hashes
    }

    /// Checks that `collection` may take vectors of `model` and `dimensions` (a missing
    /// collection may).
    /// - Throws: ``EmbeddingStoreError/mismatch(collection:storedModel:storedDimensions:model:dimensions:)``.
    public func checkFits(collection: String, model: String, dimensions: Int) throws {
        guard let stored = try self.collection(named: collection) else { return }
        guard stored.model == model, stored.dimensions == dimensions else {
            throw EmbeddingStoreError.mismatch(
                collection: collection, storedModel: stored.model, storedDimensions: stored.dimensions,
                model: model, dimensions: dimensions)
        }
    }

    /// Stores `rows` in `collection` (created for `model` at the rows' dimension when missing),
    /// replacing rows of the same IDs, in one transaction: a kill keeps all of them or none.
    /// - Throws: ``EmbeddingStoreError`` when the collection holds another model or dimension,
    ///   or a row's vector has another dimension than the others; ``LogStoreError`` from SQLite.
    public func store(_ rows: [EmbeddingRow], collection: String, model: String) throws {
        guard let dimensions = rows.first?.vector.count else { return }
        if let odd = rows.first(where: { $0.vector.count != dimensions }) {
            throw EmbeddingStoreError.mismatch(
                collection: collection, storedModel: model, storedDimensions: dimensions, model: model,
                dimensions: odd.vector.count)
        }
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        try database.transaction {
            try checkFits(collection: collection, model: model, dimensions: dimensions)
            try database.run(
                "INSERT OR IGNORE INTO collections(name, model, dimensions, created_ms) VALUES (?,?,?,?)",
                [.text(collection), .text(model), .integer(Int64(dimensions)), .integer(now)])
            for row in rows {
                try database.run(
                    """
                    INSERT OR REPLACE INTO embeddings(
                        collection, id, content_hash, model, dimensions, vector, metadata, updated_ms)
                    VALUES (?,?,?,?,?,?,?,?)
                    """,
                    [
                        .text(collection), .text(row.id), .text(row.contentHash), .text(model),
                        .integer(Int64(dimensions)), .blob(Self.littleEndianData(row.vector)),
                        .text(row.metadata),
                        .integer(now),
                    ])
            }
        }
    }

    /// Deletes `collection` and its rows.
    /// - Returns: whether there was such a collection.
    @discardableResult
    public func delete(collection: String) throws -> Bool {
        try database.transaction {
            try database.run("DELETE FROM embeddings WHERE collection = ?", [.text(collection)])
            return try database.run("DELETE FROM collections WHERE name = ?", [.text(collection)]) > 0
        }
    }

    /// Every vector of `collection`, read into one ``EmbeddingIndex`` (ordered by ID).
    /// - Throws: ``EmbeddingStoreError/noSuchCollection(_:)``.
    public func index(of collection: String) throws -> EmbeddingIndex {
        guard let stored = try self.collection(named: collection) else {
            throw EmbeddingStoreError.noSuchCollection(collection)
        }
        var ids: [String] = []
        var metadata: [String?] = []
        var values: [Float] = []
        ids.reserveCapacity(stored.count)
        values.reserveCapacity(stored.count * stored.dimensions)
        try database.query(
            "SELECT id, metadata, vector FROM embeddings WHERE collection = ? ORDER BY id",
            [.text(collection)]
        ) { row in
            ids.append(SQLiteDatabase.text(row, 0) ?? "")
            metadata.append(SQLiteDatabase.text(row, 1))
            SQLiteDatabase.withBlob(row, 2) { bytes in
                let count = min(bytes.count / 4, stored.dimensions)
                for index in 0..<count {
                    let bits = bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                    values.append(Float(bitPattern: UInt32(littleEndian: bits)))
                }
                for _ in count..<stored.dimensions { values.append(0) }
            }
        }
        return EmbeddingIndex(
            collection: stored, ids: ids, metadata: metadata, values: values, version: try dataVersion())
    }

    /// A number that changes when another connection commits a change (`PRAGMA data_version`)
    /// and when this one does (its total changes): an ``EmbeddingIndex`` older than it is stale.
    public func dataVersion() throws -> Int {
        try database.integer("PRAGMA data_version") << 32 | database.integer("SELECT total_changes()")
    }

    /// The schema version of the open database.
    public func version() throws -> Int { try database.integer("PRAGMA user_version") }

    /// The journal mode of the open database (`wal`).
    public func journalMode() throws -> String {
        var mode = ""
        try database.query("PRAGMA journal_mode") { mode = SQLiteDatabase.text($0, 0) ?? "" }
        return mode
    }

    /// `vector` as little-endian Float32 bytes (4 per dimension), as the `vector` column holds it.
    public static func littleEndianData(_ vector: [Float]) -> Data {
        var data = Data(capacity: vector.count * 4)
        for value in vector {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}

/// One row to store: its ID, the SHA-256 (hex) of the embedded text, the vector, and metadata
/// (compact JSON, or `nil`).
public struct EmbeddingRow: Sendable, Hashable {
    /// The row's ID in its collection.
    public var id: String
    /// The SHA-256 of the embedded text, as lower-case hex.
    public var contentHash: String
    /// The vector.
    public var vector: [Float]
    /// Metadata as compact JSON, or `nil`.
    public var metadata: String?

    /// A row to store.
    public init(id: String, contentHash: String, vector: [Float], metadata: String? = nil) {
        self.id = id
        self.contentHash = contentHash
        self.vector = vector
        self.metadata = metadata
    }
}

/// One stored collection: its model, dimension and number of rows.
public struct EmbeddingCollection: Sendable, Hashable {
    /// The collection's name.
    public var name: String
    /// The model its vectors come from.
    public var model: String
    /// The dimension of every vector.
    public var dimensions: Int
    /// The number of rows.
    public var count: Int

    /// A collection as stored.
    public init(name: String, model: String, dimensions: Int, count: Int) {
        self.name = name
        self.model = model
        self.dimensions = dimensions
        self.count = count
    }
}

/// Why the embedding store refused something (docs/embeddings.md).
public enum EmbeddingStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Vectors of another model or dimension than the collection holds.
    case mismatch(
        collection: String, storedModel: String, storedDimensions: Int, model: String, dimensions: Int)
    /// No collection of that name.
    case noSuchCollection(String)

    /// The message, naming both models and dimensions.
    public var description: String {
        switch self {
        case .mismatch(let collection, let storedModel, let storedDimensions, let model, let dimensions):
            "collection '\(collection)' holds \(storedModel) vectors of \(storedDimensions) dimensions;"
                + " refusing \(model) vectors of \(dimensions) dimensions"
        case .noSuchCollection(let name): "no collection '\(name)'"
        }
    }
}
