import Foundation
import SophonCore

/// Reads a whole regular file (or the rest of one, for standard input redirected from a file)
/// straight into a `String`'s storage: one allocation of the file's size, no `Data` and no
/// second copy, UTF-8 checked in place (``UTF8Validator``).
///
/// Anything else (a pipe, a device, a file that changes size while read, a read error) is
/// left to the caller's general path: ``read(descriptor:limit:)`` returns `nil` having put the
/// descriptor's offset back where it was.
enum TextInputReader {
    /// What was read.
    struct Text {
        /// The text; empty when ``nulOffset`` is set. Invalid UTF-8 was replaced with U+FFFD
        /// (as `String(decoding:as:)` replaces it).
        var text: String
        /// The offset of the first NUL byte, if any (the file is binary).
        var nulOffset: Int?
        /// Whether the bytes were well-formed UTF-8.
        var isValidUTF8: Bool
    }

    /// Reads from `descriptor`'s current offset to the end of a regular file of at most `limit`
    /// bytes from there; `nil` (offset restored) for anything else.
    /// - Parameter dropsByteOrderMark: a leading UTF-8 byte order mark of well-formed text is
    ///   left out, as Foundation's `String(data:encoding: .utf8)` leaves it out.
    static func read(descriptor: Int32, limit: Int, dropsByteOrderMark: Bool = false) -> Text? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let start = lseek(descriptor, 0, SEEK_CUR)
        guard start >= 0, Int(status.st_size) >= Int(start) else { return nil }
        let size = Int(status.st_size) - Int(start)
        guard size > 0, size <= limit else { return nil }
        var failed = false
        var nulOffset: Int?
        var isValid = true
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            let filled =
                (try? FileDescriptorReader.readFully(descriptor, into: UnsafeMutableRawBufferPointer(buffer)))
                ?? 0
            var extra: UInt8 = 0
            guard filled == size, Foundation.read(descriptor, &extra, 1) == 0 else {
                failed = true  // Shorter or longer than it said: the general path decides.
                return 0
            }
            let bytes = UnsafeBufferPointer(rebasing: buffer[0..<filled])
            if let nul = memchr(bytes.baseAddress!, 0, filled) {
                nulOffset = UnsafeRawPointer(nul) - UnsafeRawPointer(bytes.baseAddress!)
                return 0
            }
            isValid = UTF8Validator.isValid(bytes)
            if dropsByteOrderMark, isValid, filled >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF
            {
                let base = UnsafeMutableRawPointer(buffer.baseAddress!)
                base.copyMemory(from: base + 3, byteCount: filled - 3)
                return filled - 3
            }
            return filled
        }
        if failed {
            lseek(descriptor, start, SEEK_SET)
            return nil
        }
        return Text(text: text, nulOffset: nulOffset, isValidUTF8: isValid)
    }

    /// Reads the regular file at `path` (see ``read(descriptor:limit:)``); `nil` when it cannot
    /// be opened or is not a regular file of at most `limit` bytes. Anything but a regular file
    /// is never opened: opening a FIFO takes what its writer sent, and the caller's general path
    /// would then wait for a writer that never comes (`extract @FIFO`, `validate @FIFO` hung).
    static func read(path: String, limit: Int, dropsByteOrderMark: Bool = false) -> Text? {
        guard isRegularFile(path) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor: descriptor, limit: limit, dropsByteOrderMark: dropsByteOrderMark)
    }

    /// Whether `path` names a regular file (links followed), found without opening it.
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}

/// The rule for files the shell reads without being named on the command line: `sophonrc`,
/// `settings.json`, the REPL history, `logs.db` (docs/files.md, "Files the shell reads"). Such a file that is
/// not a regular file is never opened: a FIFO would block start-up until some writer came, and
/// a device such as `/dev/zero` never ends. Files a user names (`source FILE`, `@FILE`, a
/// script, `--replay TAPE`) are read as named, a FIFO included, as `psql`'s `\i` reads one.
enum ImplicitFile {
    /// Why the file at `path` is not read, or `nil` when it is a regular file or missing:
    /// `ROLE 'PATH' is a FIFO, not a regular file` (`a folder`, `a device`, `a socket`; links
    /// followed).
    /// - Parameters:
    ///   - path: the file's path, as shown.
    ///   - role: how the file is named in the message (`sophonrc`, `history file`).
    static func problem(_ path: String, role: String) -> String? {
        AtomicFile.nonRegularKind(at: path).map { "\(role) '\(path)' is \($0), not a regular file" }
    }
}
