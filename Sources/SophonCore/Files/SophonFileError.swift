#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file system call that failed: which path, which operation, and the `errno` it set.
///
/// `description` reads like a command-line tool's message, e.g.
/// `cannot rename '/home/a/.config/sophon/.keys.json.tmp-1-2a' to '/home/a/.config/sophon/keys.json':
/// Is a directory`.
public struct SophonFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done when the call failed.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        /// Creating a folder (`mkdir`).
        case createFolder
        /// Opening or creating a file (`open`).
        case open
        /// Reading a file (`read`, `fstat`).
        case read
        /// Writing bytes (`write`).
        case write
        /// Flushing to disk (`fsync`).
        case sync
        /// Moving the temporary file over the target (`rename`).
        case rename
        /// Replacing something that is not a regular file (a FIFO, a device, a socket or a
        /// folder), refused before anything is written.
        case replace

        /// The verb used in messages (`create folder`, `open`, `read`, ...).
        public var verb: String {
            switch self {
            case .createFolder: "create folder"
            case .open: "open"
            case .read: "read"
            case .write: "write"
            case .sync: "sync"
            case .rename: "rename"
            case .replace: "replace"
            }
        }
    }

    /// The path the operation was about (for `rename`, the source).
    public let path: String
    /// The operation that failed.
    public let operation: Operation
    /// The `errno` value the failing call set (e.g. `EACCES` = 13 on Linux).
    public let errorNumber: Int32
    /// The rename target, for ``Operation/rename`` only.
    public let destination: String?
    /// What the path is when it is not a regular file (`a FIFO`, `a device`, `a socket`,
    /// `a folder`), for ``Operation/replace`` and for a refused ``Operation/read``.
    public let fileKind: String?

    /// Creates an error from its parts.
    ///
    /// - Parameters:
    ///   - path: The path the operation was about.
    ///   - operation: The operation that failed.
    ///   - errorNumber: The `errno` value the call set.
    ///   - destination: The rename target, for ``Operation/rename``.
    ///   - fileKind: What the path is, for ``Operation/replace`` (`a FIFO`, ...).
    public init(
        path: String, operation: Operation, errorNumber: Int32, destination: String? = nil,
        fileKind: String? = nil
    ) {
        self.path = path
        self.operation = operation
        self.errorNumber = errorNumber
        self.destination = destination
        self.fileKind = fileKind
    }

    /// The article and noun for a `st_mode & S_IFMT` value that is not a regular file.
    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case mode_t(S_IFDIR): "a folder"
        case mode_t(S_IFIFO): "a FIFO"
        case mode_t(S_IFCHR), mode_t(S_IFBLK): "a device"
        case mode_t(S_IFSOCK): "a socket"
        default: "an unknown kind of file"
        }
    }

    /// The system's text for ``errorNumber`` (`strerror`), e.g. `Permission denied`.
    public var reason: String {
        String(cString: strerror(errorNumber))
    }

    /// One line: `cannot OPERATION 'PATH': REASON` (rename names both paths; a refused
    /// replacement reads `cannot replace 'PATH': it is a FIFO, not a regular file`).
    public var description: String {
        if let fileKind {
            return "cannot \(operation.verb) '\(path)': it is \(fileKind), not a regular file"
        }
        if let destination {
            return "cannot \(operation.verb) '\(path)' to '\(destination)': \(reason)"
        }
        return "cannot \(operation.verb) '\(path)': \(reason)"
    }
}
