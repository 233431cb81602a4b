/// Why a SQLite store failed (`logs.db`, docs/logs.md; `embeddings.db`, docs/embeddings.md).
public enum LogStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite failed: the path, the step, and SQLite's message.
    case sqlite(path: String, step: String, message: String)
    /// `logs show ID` of an ID with no entry.
    case noSuchEntry(id: Int64)
    /// The database was made by a newer Sophon: its schema version, and the newest this one
    /// knows.
    case newerSchema(path: String, version: Int, known: Int)

    /// The message, naming the file and the SQLite step that failed.
    public var description: String {
        switch self {
        case .sqlite(let path, let step, let message): "\(path): \(step): \(message)"
        case .noSuchEntry(let id): "no log entry \(id)"
        case .newerSchema(let path, let version, let known):
            "\(path): schema version \(version) is newer than this sophon knows (\(known))"
        }
    }
}
