#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one EINTR-safe `read(2)` of the package: every loop that reads a file descriptor (a
/// file, a pipe, a terminal, a plugin's output) calls it, so a read that a signal interrupts is
/// retried in one place, and a read that fails is an error, never taken for the end of input.
public enum FileDescriptorReader {
    /// Reads once: up to `buffer.count` bytes from `descriptor` into `buffer`, retrying while a
    /// signal interrupts the call (`EINTR`).
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor (it is neither closed nor made non-blocking).
    ///   - buffer: Where the bytes go, from its start.
    ///   - offset: nil reads at the descriptor's file offset and moves it (`read(2)`); a byte
    ///     offset reads there with `pread(2)` and leaves the file offset alone.
    /// - Returns: The number of bytes read, `1...buffer.count`; 0 at the end of input (also for
    ///   an empty buffer). A pipe or a terminal may return fewer bytes than asked for.
    /// - Throws: ``FileDescriptorError`` with the `errno` of the failing call, e.g. `EBADF`
    ///   (not an open descriptor), `EISDIR`, `EIO`, or `EAGAIN` (a non-blocking descriptor with
    ///   nothing to read yet).
    public static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil
    ) throws(FileDescriptorError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count =
                if let offset {
                    pread(descriptor, base, buffer.count, off_t(offset))
                } else {
                    systemRead(descriptor, base, buffer.count)
                }
            if count >= 0 { return count }
            let code = errno
            if code != EINTR { throw FileDescriptorError(errorNumber: code) }
        }
    }

    /// Reads until `buffer` is full or the input ends, joining partial reads (a pipe hands out
    /// what its writer wrote so far), each through ``read(_:into:at:)``.
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor.
    ///   - buffer: Where the bytes go, from its start.
    ///   - offset: nil reads at the file offset; a byte offset reads from there on (`pread(2)`).
    /// - Returns: The number of bytes read: `buffer.count`, or fewer only when the input ended.
    /// - Throws: ``FileDescriptorError`` as ``read(_:into:at:)`` does; bytes read before
    ///   the failing call are in `buffer` but not counted.
    public static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil
    ) throws(FileDescriptorError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(
                descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
                at: offset.map { $0 + filled })
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}

/// The C library's `read(2)` (inside ``FileDescriptorReader`` the name `read` means its own).
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
