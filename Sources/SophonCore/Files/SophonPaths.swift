import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where Sophon keeps its files, resolved from an environment (never from global state, so tests
/// can pass their own and never touch the real home folder).
///
/// Rules, in order:
/// 1. `SOPHON_HOME` set and not empty: one flat folder holds everything (`keys.json`,
///    `sophonrc`, `settings.json`, `history`, `plugins/`); config and state folders are both it.
/// 2. Otherwise, per the XDG Base Directory specification: config in `$XDG_CONFIG_HOME/sophon`
///    (default `$HOME/.config/sophon`), state in `$XDG_STATE_HOME/sophon` (default
///    `$HOME/.local/state/sophon`). An empty or relative XDG value is ignored, as the
///    specification requires.
///
/// A relative `SOPHON_HOME` is resolved against the current directory. Without `HOME` the
/// account's home folder from the system is used.
public struct SophonPaths: Sendable, Hashable {
    /// The folder of `keys.json`, `sophonrc`, `settings.json` and `plugins/`.
    public let configFolder: URL
    /// The folder of `history`.
    public let stateFolder: URL
    /// Whether `SOPHON_HOME` chose one flat folder for everything.
    public let isFlat: Bool

    /// Resolves the folders from an environment.
    ///
    /// - Parameter environment: Variables to read (`SOPHON_HOME`, `XDG_CONFIG_HOME`,
    ///   `XDG_STATE_HOME`, `HOME`); defaults to this process's environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        if let home = value("SOPHON_HOME") {
            let folder = URL(fileURLWithPath: home, isDirectory: true).standardizedFileURL
            configFolder = folder
            stateFolder = folder
            isFlat = true
            return
        }
        func xdg(_ name: String) -> String? {
            guard let text = value(name), text.hasPrefix("/") else { return nil }
            return text
        }
        let home = value("HOME") ?? NSHomeDirectory()
        let homeURL = URL(fileURLWithPath: home, isDirectory: true)
        let configBase =
            xdg("XDG_CONFIG_HOME").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? homeURL.appendingPathComponent(".config", isDirectory: true)
        let stateBase =
            xdg("XDG_STATE_HOME").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? homeURL.appendingPathComponent(".local/state", isDirectory: true)
        configFolder = configBase.appendingPathComponent("sophon", isDirectory: true).standardizedFileURL
        stateFolder = stateBase.appendingPathComponent("sophon", isDirectory: true).standardizedFileURL
        isFlat = false
    }

    /// `keys.json`: the file key store (a JSON object of account -> secret, mode 0600).
    public var keysFile: URL { configFolder.appendingPathComponent("keys.json", isDirectory: false) }
    /// `sophonrc`: commands run when the shell starts (unless `--no-rc`).
    public var rcFile: URL { configFolder.appendingPathComponent("sophonrc", isDirectory: false) }
    /// `settings.json`: persisted settings (`{"model": ID}`).
    public var settingsFile: URL { configFolder.appendingPathComponent("settings.json", isDirectory: false) }
    /// `history`: the line editor's history (libedit format), in the state folder.
    public var historyFile: URL { stateFolder.appendingPathComponent("history", isDirectory: false) }
    /// `plugins/`: external plugin executables (`sophon-plugin-NAME`).
    public var pluginsFolder: URL { configFolder.appendingPathComponent("plugins", isDirectory: true) }
}

/// A file's content together with the permissions it had when read, taken through one open file
/// descriptor (so the mode checked is the mode of the bytes read, with no race between them).
public struct FileSnapshot: Sendable, Hashable {
    /// The file's bytes.
    public let data: Data
    /// The permission bits (`st_mode & 0o7777`), e.g. `0o600`.
    public let permissions: mode_t
    /// The owner's user ID (`st_uid`).
    public let ownerID: uid_t

    /// Reads a regular file whole.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL.
    ///   - maxBytes: The largest file accepted, in bytes; a larger one fails with `EFBIG`.
    /// - Returns: The snapshot, or `nil` when no file exists at `url` (`ENOENT`).
    /// - Throws: ``SophonFileError``: `open` (e.g. `EACCES`), `read` (`EISDIR` for a folder,
    ///   `EFBIG` past `maxBytes`, `EINVAL` with ``SophonFileError/fileKind`` for a FIFO, a
    ///   device or a socket, which is never read, or the `read(2)` error).
    public static func read(at url: URL, maxBytes: Int = 16 << 20) throws(SophonFileError) -> FileSnapshot? {
        let path = url.path
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw SophonFileError(path: path, operation: .open, errorNumber: code)
        }
        defer { _ = close(fd) }
        var status = stat()
        if fstat(fd, &status) != 0 {
            throw SophonFileError(path: path, operation: .read, errorNumber: errno)
        }
        let kind = status.st_mode & mode_t(S_IFMT)
        if kind == mode_t(S_IFDIR) {
            throw SophonFileError(path: path, operation: .read, errorNumber: EISDIR)
        }
        if kind != mode_t(S_IFREG) {
            // A FIFO would block and a device such as /dev/zero never ends (docs/files.md).
            throw SophonFileError(
                path: path, operation: .read, errorNumber: EINVAL, fileKind: SophonFileError.kindName(kind))
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SophonFileError(path: path, operation: .read, errorNumber: errno)
            }
            if count == 0 { break }
            if data.count + count > maxBytes {
                throw SophonFileError(path: path, operation: .read, errorNumber: EFBIG)
            }
            data.append(contentsOf: buffer[0..<count])
        }
        return FileSnapshot(data: data, permissions: status.st_mode & 0o7777, ownerID: status.st_uid)
    }
}

/// The C library's `read(2)` (inside ``FileSnapshot`` the name `read` means its own method).
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, bytes, count)
}
