import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one EINTR-safe write of the package, the partner of ``FileDescriptorReader``: every
/// place that writes bytes to a file descriptor (stdout, a tape, the history file, a journal, a
/// plugin's stdin, an atomic file) calls it, so a write that a signal interrupts or the system
/// cuts short is continued in one place.
public enum FileDescriptorWriter {
    /// Writes all of `bytes` to `descriptor`, continuing after short writes and retrying while a
    /// signal interrupts the call (`EINTR`).
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor (it is neither closed nor synced).
    ///   - bytes: What to write; nothing is written for an empty buffer.
    ///   - offset: nil writes at the descriptor's file offset and moves it (`write(2)`); a byte
    ///     offset writes there with `pwrite(2)` and leaves the file offset alone.
    /// - Throws: ``FileDescriptorError`` with the `errno` of the failing call, e.g. `EPIPE`
    ///   (the reader went away), `ENOSPC` (the disk is full), `EBADF`; `EIO` when the system
    ///   wrote nothing without saying why. Bytes written before the failure stay written.
    public static func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil
    ) throws(FileDescriptorError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let count =
                if let offset {
                    pwrite(descriptor, base + written, bytes.count - written, off_t(offset + written))
                } else {
                    systemWrite(descriptor, base + written, bytes.count - written)
                }
            if count > 0 {
                written += count
                continue
            }
            let code = count < 0 ? errno : EIO
            if code != EINTR { throw FileDescriptorError(errorNumber: code) }
        }
    }

    /// Writes all of `text` as UTF-8, as the byte form does (same errors).
    public static func writeAll(_ descriptor: Int32, _ text: String, at offset: Int? = nil)
        throws(FileDescriptorError)
    {
        var text = text
        let outcome = text.withUTF8 { utf8 in
            Result { () throws(FileDescriptorError) in
                try writeAll(descriptor, UnsafeRawBufferPointer(utf8), at: offset)
            }
        }
        try outcome.get()
    }

    /// Writes all of `data`, as the byte form does (same errors).
    public static func writeAll(_ descriptor: Int32, _ data: Data, at offset: Int? = nil)
        throws(FileDescriptorError)
    {
        let outcome = data.withUnsafeBytes { bytes in
            Result { () throws(FileDescriptorError) in try writeAll(descriptor, bytes, at: offset) }
        }
        try outcome.get()
    }
}

/// The C library's `write(2)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
