import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one rule for the files Sophon writes that hold prompts, answers, settings or keys
/// (`keys.json`, `settings.json`, `mcp.json`, `logs.db` and its `-wal`/`-shm`, `history`,
/// `batches.json`, the `run` journal, saved reply media): each file is `0600` (whatever the
/// umask), each folder Sophon creates for them `0700` (docs/files.md, "Private by default").
///
/// Folders: a missing one is created `0700`. An existing folder is tightened to `0700` only when
/// it is Sophon's own (``FolderOwner/sophon``: the config or state folder, `SOPHON_HOME`, and
/// their subfolders such as `media/`), never the folder of a path the user named (the folder of
/// `run -o OUT`, where the run journal sits). Files the user names as output (`run -o OUT`,
/// `save FILE`, `--record TAPE`) are not written through this rule: they get the user's umask,
/// like any Unix tool's output.
public enum PrivateFiles {
    /// The mode of every private file: read and write for the owner only.
    public static let fileMode: mode_t = 0o600
    /// The mode of every folder created for private files: the owner only.
    public static let folderMode: mode_t = 0o700

    /// Whose folder a private file is written in.
    public enum FolderOwner: Sendable {
        /// Sophon's own folder (config, state, `SOPHON_HOME` or a subfolder): created `0700`,
        /// and tightened to `0700` when it exists with more.
        case sophon
        /// A folder the user chose: created `0700` when missing, never changed when it exists.
        case user
    }

    /// Replaces `url` with `data` atomically (``AtomicFile``), the file `0600`.
    ///
    /// - Parameters:
    ///   - data: The complete new content.
    ///   - url: A `file:` URL of the target file.
    ///   - folder: whose folder it is (see ``FolderOwner``).
    /// - Throws: ``SophonFileError`` as ``AtomicFile/write(_:to:permissions:folderPermissions:)``.
    public static func write(_ data: Data, to url: URL, folder: FolderOwner) throws(SophonFileError) {
        if folder == .sophon { try prepareFolder(url.deletingLastPathComponent().path) }
        try AtomicFile.write(data, to: url, permissions: fileMode, folderPermissions: folderMode)
    }

    /// Opens `path` with `flags` plus `O_CREAT | O_CLOEXEC`: a new file is created `0600`
    /// (whatever the umask); an existing file of this user with more than `0600` is tightened
    /// to it (`fchmod`). The folder must exist (see ``prepareFolder(_:)``).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - flags: `open(2)` flags, e.g. `O_WRONLY | O_APPEND`.
    /// - Returns: The descriptor, or -1 with `errno` set.
    public static func open(_ path: String, flags: Int32) -> Int32 {
        let descriptor = systemOpen(path, flags | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { return descriptor }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_uid == geteuid(),
            status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG), status.st_mode & 0o077 != 0
        {
            _ = fchmod(descriptor, status.st_mode & 0o700)
        }
        return descriptor
    }

    /// Creates the private file `path` empty (`0600`) when it is missing, or tightens it as
    /// ``open(_:flags:)`` does, for a file another library opens by name (SQLite's `logs.db`:
    /// SQLite gives its `-wal` and `-shm` files the database file's mode). Best effort: a file
    /// that cannot be opened is left to the library to report.
    public static func prepareFile(_ path: String) {
        let descriptor = open(path, flags: O_RDWR)
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Tightens an existing private file at `path` to `0600` when it is a regular file of this
    /// user with more; a missing file is left missing. Best effort (errors ignored).
    public static func tightenFile(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_uid == geteuid(),
            status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG), status.st_mode & 0o077 != 0
        else { return }
        _ = chmod(path, status.st_mode & 0o700)
    }

    /// Makes `path` one of Sophon's private folders: creates it and its missing parents `0700`
    /// (like `mkdir -p`), and tightens it to `0700` when it exists with more and belongs to this
    /// user. Only for Sophon's own folders (``FolderOwner/sophon``).
    ///
    /// - Throws: ``SophonFileError`` with ``SophonFileError/Operation/createFolder``.
    public static func prepareFolder(_ path: String) throws(SophonFileError) {
        try AtomicFile.createFolders(path, permissions: folderMode)
        var status = stat()
        guard lstat(path, &status) == 0, status.st_uid == geteuid(),
            status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR), status.st_mode & 0o077 != 0
        else { return }
        _ = chmod(path, status.st_mode & 0o700)
    }
}

/// The C library's `open(2)` (inside ``PrivateFiles`` the name `open` means its own method).
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
