import Foundation
import SophonCore
import Synchronization

/// The REPL's history on disk, in libedit's file format (see ``HistoryEncoding``), kept
/// safe for crashes and for several sessions at once without libedit's `H_SAVE` (which
/// truncates and rewrites the whole file).
///
/// - Each entry is appended at once, in one `write(2)` to a descriptor opened with
///   `O_APPEND` and held under `flock(LOCK_EX)`: a session killed with SIGKILL keeps every
///   line it appended, and two sessions appending together lose neither's lines.
/// - Past `limit + slack` entries, the file is compacted to the newest `limit` entries by
///   writing a temporary file beside it and renaming it over the file, under the lock. The
///   compaction reads the file again itself and is skipped when that read fails or the file
///   is not a history file: nothing is ever rewritten from a failed or partial load.
/// - The folder is created with mode 0700 and the file with mode 0600.
///
/// An instance is safe to use from several threads; each call opens its own descriptor.
final class HistoryFile: Sendable {
    /// The number of entries kept by a compaction (docs/language.md, "The REPL").
    static let defaultLimit = 1000
    /// How many entries past the limit trigger a compaction.
    static let defaultSlack = 200

    /// Where the file lives (e.g. `~/.local/state/sophon/history`).
    let path: String
    /// The number of newest entries a compaction keeps.
    let limit: Int
    /// Entries allowed past `limit` before a compaction.
    let slack: Int

    /// The entries in the file and its size in bytes when this instance last read or wrote
    /// it; nil when unknown. A size that differs at the next append means another session
    /// wrote in between: the file is counted again, so the count is exact under the lock.
    private let known = Mutex<Snapshot?>(nil)

    private struct Snapshot {
        var entries: Int
        var size: Int
    }

    /// Creates a handle; touches nothing on disk.
    /// - Parameters:
    ///   - path: the history file's path.
    ///   - limit: entries kept by a compaction, at least 1.
    ///   - slack: entries past `limit` that trigger a compaction, at least 0.
    init(path: String, limit: Int = HistoryFile.defaultLimit, slack: Int = HistoryFile.defaultSlack) {
        self.path = path
        self.limit = max(1, limit)
        self.slack = max(0, slack)
    }

    /// Whether an entry is stored at all: not when it is blank or starts with a space
    /// (the usual way to keep a line out of history).
    static func isStorable(_ entry: String) -> Bool {
        guard !entry.hasPrefix(" ") else { return false }
        return entry.contains { !$0.isWhitespace }
    }

    /// Reads every entry, oldest first.
    /// - Returns: the decoded entries; empty when the file does not exist or is empty.
    /// - Throws: `HistoryFileError.unreadable` when the file cannot be opened or read,
    ///   `.notAHistoryFile` when its first line is not `_HiStOrY_V2_`.
    func load() throws(HistoryFileError) -> [String] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return [] }
            throw .unreadable(path: path, code: code)
        }
        defer { close(descriptor) }
        _ = lockRetryingInterrupts(descriptor, LOCK_SH)
        let (lines, size) = try readLines(descriptor)
        known.withLock { $0 = Snapshot(entries: lines.count, size: size) }
        return lines.map { HistoryEncoding.decode($0) }
    }

    /// Appends one entry at once, unless it is not storable (``isStorable(_:)``) or equals
    /// the newest entry in the file.
    /// - Parameter entry: the command as entered; a multi-line command is one entry.
    /// - Returns: true when the entry was written.
    /// - Throws: `HistoryFileError.unwritable` when the folder or file cannot be created,
    ///   locked or written; `.notAHistoryFile` when the existing file is not a history file.
    @discardableResult
    func append(_ entry: String) throws(HistoryFileError) -> Bool {
        guard Self.isStorable(entry) else { return false }
        let encoded = HistoryEncoding.encode(entry)
        try createFolder(parentFolder(of: path))
        let descriptor = try openLockedForAppend()
        defer {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        let size = try fileSize(descriptor)
        let headerLine = Array((HistoryEncoding.header + "\n").utf8)
        var bytes: [UInt8] = []
        if size == 0 {
            bytes = headerLine
        } else {
            guard readBytes(descriptor, at: 0, count: headerLine.count) == headerLine else {
                throw .notAHistoryFile(path: path)
            }
            let needle = [UInt8(ascii: "\n")] + encoded + [UInt8(ascii: "\n")]
            if size >= needle.count,
                readBytes(descriptor, at: size - needle.count, count: needle.count) == needle
            {
                return false
            }
            if readBytes(descriptor, at: size - 1, count: 1) != [UInt8(ascii: "\n")] {
                bytes = [UInt8(ascii: "\n")]  // A line cut off by a crash stays on its own line.
            }
        }
        bytes += encoded
        bytes.append(UInt8(ascii: "\n"))
        try writeAll(descriptor, bytes)
        compactIfNeeded(descriptor, sizeBefore: size, sizeAfter: size + bytes.count)
        return true
    }

    /// Compacts now when the file holds more than `limit` entries (normally `append` does
    /// this by itself past `limit + slack`).
    /// - Throws: `HistoryFileError.unwritable` when the file cannot be opened or locked.
    func compact() throws(HistoryFileError) {
        let descriptor = try openLockedForAppend()
        defer {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        compactLocked(descriptor)
    }

    // MARK: - Locking and compaction

    /// Opens the file for appending (creating it with mode 0600) and takes the exclusive
    /// lock. When another session renamed a compacted file over the path while this one
    /// waited, the descriptor points at the old, unlinked file: open again.
    private func openLockedForAppend() throws(HistoryFileError) -> Int32 {
        for _ in 0..<20 {
            let descriptor = PrivateFiles.open(path, flags: O_RDWR | O_APPEND)
            guard descriptor >= 0 else { throw .unwritable(path: path, code: errno) }
            guard lockRetryingInterrupts(descriptor, LOCK_EX) == 0 else {
                let code = errno
                close(descriptor)
                throw .unwritable(path: path, code: code)
            }
            var opened = stat()
            var current = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &current) == 0,
                opened.st_dev == current.st_dev, opened.st_ino == current.st_ino
            {
                return descriptor
            }
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        throw .unwritable(path: path, code: EAGAIN)
    }

    /// Counts the entries after an append (from the snapshot when nobody else wrote since,
    /// else by reading the file) and compacts past `limit + slack`. The caller holds the lock.
    private func compactIfNeeded(_ descriptor: Int32, sizeBefore: Int, sizeAfter: Int) {
        var entries: Int? = known.withLock { snapshot in
            if sizeBefore == 0 {
                snapshot = Snapshot(entries: 1, size: sizeAfter)
            } else if let previous = snapshot, previous.size == sizeBefore {
                snapshot = Snapshot(entries: previous.entries + 1, size: sizeAfter)
            } else {
                snapshot = nil
            }
            return snapshot?.entries
        }
        if entries == nil, let (lines, size) = try? readLines(descriptor) {
            entries = lines.count
            known.withLock { $0 = Snapshot(entries: lines.count, size: size) }
        }
        if let entries, entries > limit + slack { compactLocked(descriptor) }
    }

    /// Rewrites the file with its newest `limit` lines, kept byte for byte. The caller holds
    /// the exclusive lock. Does nothing unless the file reads completely as a history file.
    private func compactLocked(_ descriptor: Int32) {
        guard let (lines, size) = try? readLines(descriptor) else { return }
        guard lines.count > limit else {
            known.withLock { $0 = Snapshot(entries: lines.count, size: size) }
            return
        }
        var bytes = Array((HistoryEncoding.header + "\n").utf8)
        for line in lines.suffix(limit) {
            bytes += line
            bytes.append(UInt8(ascii: "\n"))
        }
        removeStaleTemporaries()
        // The shell's one writer: a symlinked history is replaced at its target, and a path
        // that became a FIFO or a device is never replaced (docs/files.md, "Atomic writes").
        do {
            try PrivateFiles.write(Data(bytes), to: URL(fileURLWithPath: path), folder: .sophon)
        } catch {
            return
        }
        known.withLock { $0 = Snapshot(entries: limit, size: bytes.count) }
    }

    /// Removes `PATH.tmp-*` files: every compaction writes and renames its temporary under the
    /// exclusive lock this process now holds, so any still there was left by a killed one.
    private func removeStaleTemporaries() {
        let parent = parentFolder(of: path)
        let folder = parent.isEmpty ? "." : parent
        let prefix = (path as NSString).lastPathComponent + ".tmp-"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            _ = unlink((folder as NSString).appendingPathComponent(entry))
        }
    }

    // MARK: - Reading

    /// The entry lines after the header (still encoded), skipping empty lines; a last line
    /// without a newline counts. Also returns the file's size in bytes.
    private func readLines(_ descriptor: Int32) throws(HistoryFileError) -> ([ArraySlice<UInt8>], Int) {
        let bytes = try readAll(descriptor)
        guard !bytes.isEmpty else { return ([], 0) }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
        guard let first = lines.first, first.elementsEqual(HistoryEncoding.header.utf8) else {
            throw .notAHistoryFile(path: path)
        }
        return (lines.dropFirst().filter { !$0.isEmpty }, bytes.count)
    }

    private func readAll(_ descriptor: Int32) throws(HistoryFileError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        var offset = 0
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes {
                    try FileDescriptorReader.read(descriptor, into: $0, at: offset)
                }
            } catch {
                throw .unreadable(path: path, code: (error as? FileDescriptorError)?.errorNumber ?? EIO)
            }
            if count == 0 { return result }
            result += chunk[0..<count]
            offset += count
        }
    }

    private func readBytes(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let filled = try? buffer.withUnsafeMutableBytes {
            try FileDescriptorReader.readFully(descriptor, into: $0, at: offset)
        }
        return filled == count ? buffer : nil
    }

    private func fileSize(_ descriptor: Int32) throws(HistoryFileError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, code: errno) }
        return Int(info.st_size)
    }

    // MARK: - Writing

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(HistoryFileError) {
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(FileDescriptorError) in try FileDescriptorWriter.writeAll(descriptor, raw)
            }
        }
        if case .failure(let error) = outcome { throw .unwritable(path: path, code: error.errorNumber) }
    }

    /// Creates `folder` and its missing parents with mode 0700, or tightens it to 0700 (the
    /// state folder is Sophon's own: ``PrivateFiles``).
    private func createFolder(_ folder: String) throws(HistoryFileError) {
        guard !folder.isEmpty else { return }
        do {
            try PrivateFiles.prepareFolder(folder)
        } catch {
            throw .unwritable(path: path, code: error.errorNumber)
        }
    }

    private func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private func lockRetryingInterrupts(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = flock(descriptor, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }
}

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
