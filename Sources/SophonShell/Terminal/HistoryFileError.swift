import Foundation

/// Why the history file could not be read or written. The file is left as it was in
/// every case: nothing is ever rewritten after a failure.
enum HistoryFileError: Error, Equatable, CustomStringConvertible {
    /// Opening or reading the file failed; `code` is the `errno` value (e.g. `EISDIR`,
    /// `EACCES`, `EIO`). A missing file is not an error: it loads as empty.
    case unreadable(path: String, code: Int32)
    /// The file exists and is not empty, but its first line is not `_HiStOrY_V2_`, so it
    /// is not a libedit history file; it is neither appended to nor compacted.
    case notAHistoryFile(path: String)
    /// Creating the folder or the file, locking, or writing failed; `code` is `errno`.
    case unwritable(path: String, code: Int32)

    /// One line for the user, naming the file and the system's reason.
    var description: String {
        switch self {
        case .unreadable(let path, let code):
            return "cannot read history file \(path): \(Self.reason(code))"
        case .notAHistoryFile(let path):
            return "\(path) is not a history file (its first line is not \(HistoryEncoding.header)); "
                + "it was left unchanged"
        case .unwritable(let path, let code):
            return "cannot write history file \(path): \(Self.reason(code))"
        }
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
