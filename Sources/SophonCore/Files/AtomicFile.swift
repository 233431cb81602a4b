import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash-safe file replacement: a reader sees either the old content or the new one, never a mix.
///
/// ``write(_:to:permissions:folderPermissions:)`` writes a temporary file in the target's folder
/// (created with `open(2)`, `O_CREAT | O_EXCL`, already carrying its final permissions, so a
/// secret is never readable by others even for an instant), `fsync`s it, `rename(2)`s it over the
/// target (atomic within one file system, POSIX), then `fsync`s the folder so the rename itself
/// survives a power loss.
public enum AtomicFile {
    /// Replaces the content of `url` with `data`, atomically.
    ///
    /// Missing parent folders are created first with `folderPermissions` (pass `0o700` for
    /// Sophon's config folders). On any failure the previous file (if any) is left untouched and
    /// the temporary file is removed. A symbolic link at `url` is followed (a chain of links
    /// too, relative ones against the folder of the link): the file it points at is replaced in
    /// that file's folder and the link stays. A FIFO, a device, a socket or a folder at the
    /// (resolved) path is refused before anything is created (docs/files.md, "Atomic writes").
    ///
    /// - Parameters:
    ///   - data: The complete new content.
    ///   - url: A `file:` URL of the target file.
    ///   - permissions: Mode bits for the file (e.g. `0o600`), applied exactly (whatever the
    ///     umask) before any byte is written. `nil` keeps the mode of the existing file, or
    ///     gives a new file `0o666` less the process umask.
    ///   - folderPermissions: Mode bits for folders this call creates (the umask applies).
    /// - Throws: ``SophonFileError`` naming the path (the target, or the folder that could not
    ///   be created; a failed rename names the temporary file and the target), the operation
    ///   (`createFolder`, `open`, `write`, `sync`, `rename`, `replace` for a path that is not a
    ///   regular file, `ELOOP` for a symlink loop) and the `errno`. Syncing the folder
    ///   after the rename is best effort (some file systems refuse `fsync` on folders): it
    ///   never throws.
    public static func write(
        _ data: Data, to url: URL, permissions: mode_t? = nil, folderPermissions: mode_t = 0o755
    ) throws(SophonFileError) {
        try write(data, to: url, permissions: permissions, folderPermissions: folderPermissions, fault: nil)
    }

    /// A failure injected by tests, to prove that a write that does not complete leaves the old
    /// file and no temporary file behind.
    enum Fault: Sendable {
        /// Writes this many bytes of the new content, then fails with `EIO`.
        case failAfterWriting(bytes: Int)
        /// Writes and syncs everything, then fails with `EIO` instead of renaming.
        case failBeforeRename
        /// Calls the closure with the temporary file's path right after `open(2)` created it
        /// (before anything else touches it); the write then goes on normally.
        case observeTemporary(@Sendable (String) -> Void)
    }

    /// The name prefix of temporary files next to `name`: `.NAME.tmp-`.
    static func temporaryPrefix(for name: String) -> String { ".\(name).tmp-" }

    static func write(
        _ data: Data, to url: URL, permissions: mode_t?, folderPermissions: mode_t, fault: Fault?
    ) throws(SophonFileError) {
        let target = try resolvedTarget(url.path)
        let targetURL = URL(fileURLWithPath: target)
        let folder = targetURL.deletingLastPathComponent().path
        try createFolders(folder, permissions: folderPermissions)

        var mode: mode_t? = permissions
        var status = stat()
        if mode == nil, stat(target, &status) == 0 {
            mode = status.st_mode & 0o7777
        }

        let (fd, temporary) = try createTemporaryFile(
            for: target, in: folder, name: targetURL.lastPathComponent, mode: mode)
        if case .observeTemporary(let observe) = fault { observe(temporary) }
        var closed = false
        func discard() {
            if !closed { _ = close(fd) }
            closed = true
            _ = unlink(temporary)
        }

        if let mode, fchmod(fd, mode) != 0 {
            let error = SophonFileError(path: target, operation: .open, errorNumber: errno)
            discard()
            throw error
        }
        var limit = data.count
        if case .failAfterWriting(let bytes) = fault { limit = min(max(bytes, 0), data.count) }
        let writeErrno = writeAll(fd, data, limit: limit)
        if writeErrno != 0 || limit < data.count {
            discard()
            throw SophonFileError(
                path: target, operation: .write, errorNumber: writeErrno == 0 ? EIO : writeErrno)
        }
        if fsync(fd) != 0 {
            let error = SophonFileError(path: target, operation: .sync, errorNumber: errno)
            discard()
            throw error
        }
        closed = true
        if close(fd) != 0 {
            let error = SophonFileError(path: target, operation: .write, errorNumber: errno)
            discard()
            throw error
        }
        if case .failBeforeRename = fault {
            discard()
            throw SophonFileError(path: temporary, operation: .rename, errorNumber: EIO, destination: target)
        }
        if rename(temporary, target) != 0 {
            let error = SophonFileError(
                path: temporary, operation: .rename, errorNumber: errno, destination: target)
            discard()
            throw error
        }
        removeStaleTemporaries(in: folder, name: targetURL.lastPathComponent)
        syncFolder(folder)
    }

    /// The path a write to `path` replaces: `path` itself, or, when it is a symbolic link, the
    /// file at the end of its chain of links (40 links at most, as the kernel's `MAXSYMLINKS`).
    ///
    /// - Throws: ``SophonFileError`` with ``SophonFileError/Operation/replace`` when the
    ///   resolved path exists and is not a regular file (``SophonFileError/fileKind`` names
    ///   what it is), or `ELOOP` when the chain is too long.
    public static func resolvedTarget(_ path: String) throws(SophonFileError) -> String {
        var current = path
        var status = stat()
        for _ in 0..<40 {
            guard lstat(current, &status) == 0 else { return current }
            let kind = status.st_mode & mode_t(S_IFMT)
            if kind == mode_t(S_IFLNK) {
                guard let link = readLink(current) else {
                    throw SophonFileError(path: current, operation: .open, errorNumber: errno)
                }
                current =
                    link.hasPrefix("/")
                    ? link
                    : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                        link)
                continue
            }
            if kind == mode_t(S_IFREG) { return current }
            throw SophonFileError(
                path: current, operation: .replace, errorNumber: kind == mode_t(S_IFDIR) ? EISDIR : EINVAL,
                fileKind: SophonFileError.kindName(kind))
        }
        throw SophonFileError(path: path, operation: .open, errorNumber: ELOOP)
    }

    /// What is at `path` (symbolic links followed) when it exists and is not a regular file:
    /// `a folder`, `a FIFO`, `a device`, `a socket`; `nil` for a regular file or nothing.
    ///
    /// Readers of files the shell also writes (the REPL history) use it to refuse a FIFO, which
    /// would block a read forever, or a device such as `/dev/zero`, which never ends.
    public static func nonRegularKind(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & mode_t(S_IFMT)
        return kind == mode_t(S_IFREG) ? nil : SophonFileError.kindName(kind)
    }

    /// What is at `path` (symbolic links followed) when a file the user named cannot be read
    /// from it: `a folder`, `a device`, `a socket`; `nil` for a regular file, a FIFO (read as
    /// named, as `psql`'s `\i` reads one) or nothing (docs/files.md, "Files the shell reads").
    public static func unreadableKind(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let kind = status.st_mode & mode_t(S_IFMT)
        return kind == mode_t(S_IFREG) || kind == mode_t(S_IFIFO) ? nil : SophonFileError.kindName(kind)
    }

    /// The text of the symbolic link at `path`, or `nil` (with `errno` set) when it cannot be read.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates `path` and its missing ancestors (like `mkdir -p`) with `permissions`.
    ///
    /// - Throws: ``SophonFileError`` with ``SophonFileError/Operation/createFolder``.
    static func createFolders(_ path: String, permissions: mode_t) throws(SophonFileError) {
        var missing: [String] = []
        var current = path
        var status = stat()
        while !current.isEmpty, current != "/", stat(current, &status) != 0 {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        for folder in missing.reversed() where mkdir(folder, permissions) != 0 {
            let code = errno
            if code == EEXIST, stat(folder, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR)
            {
                continue
            }
            throw SophonFileError(path: folder, operation: .createFolder, errorNumber: code)
        }
    }

    /// Creates a new, empty, exclusive temporary file in `folder`, retrying on name collisions.
    private static func createTemporaryFile(
        for target: String, in folder: String, name: String, mode: mode_t?
    ) throws(SophonFileError) -> (Int32, String) {
        let prefix = (folder as NSString).appendingPathComponent(temporaryPrefix(for: name))
        var attempt = 0
        while true {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let candidate = "\(prefix)\(getpid())-\(suffix)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o666)
            if fd >= 0 { return (fd, candidate) }
            let code = errno
            attempt += 1
            if code != EEXIST || attempt >= 16 {
                throw SophonFileError(path: target, operation: .open, errorNumber: code)
            }
        }
    }

    /// Writes the first `limit` bytes of `data` to `fd` (``FileDescriptorWriter``).
    ///
    /// - Returns: 0 on success, else the `errno` of the failing `write`.
    private static func writeAll(_ fd: Int32, _ data: Data, limit: Int) -> Int32 {
        do {
            try FileDescriptorWriter.writeAll(fd, data.prefix(limit))
            return 0
        } catch {
            return error.errorNumber
        }
    }

    /// `fsync`s a folder so a rename inside it is durable; best effort.
    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }
}

extension AtomicFile {
    /// Removes the temporaries that writers killed mid-write left beside `name` in `folder`
    /// (`.NAME.tmp-PID-HEX`, see ``temporaryPrefix(for:)``): those whose PID names no running
    /// process (`kill(PID, 0)` fails with `ESRCH`). A temporary of this process or of another
    /// live one (a concurrent writer) stays. Best effort: errors are ignored.
    ///
    /// A killed `key set` would otherwise leave a full copy of keys.json behind for good
    /// (scripts/crash-safety.py found them).
    static func removeStaleTemporaries(in folder: String, name: String) {
        let prefix = temporaryPrefix(for: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                pid != getpid()
            else { continue }
            let suffix = rest[rest.index(after: dash)...]
            guard !suffix.isEmpty, suffix.allSatisfy(\.isHexDigit) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                _ = unlink((folder as NSString).appendingPathComponent(entry))
            }
        }
    }
}
