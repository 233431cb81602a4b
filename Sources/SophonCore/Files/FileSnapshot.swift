import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { try FileDescriptorReader.read(fd, into: $0) }
            } catch {
                throw SophonFileError(
                    path: path, operation: .read,
                    errorNumber: (error as? FileDescriptorError)?.errorNumber ?? EIO)
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
