import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file one physical line at a time (`getline(3)`), so a long input never sits whole
/// in memory. Lines end at `\n`; a `\r` before it is dropped. Line numbers are 1-based.
final class BulkLineReader {
    /// One physical line.
    struct Line {
        /// 1-based physical line number.
        var number: Int
        /// The line's text, or `nil` when it is not valid UTF-8.
        var text: String?
    }

    private let file: UnsafeMutablePointer<FILE>
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0
    private var number = 0

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - command: the command reading it, which starts the error message.
    /// - Throws: ``CommandFailure`` `fileError`: `COMMAND: cannot read 'PATH': REASON`.
    init(path: String, command: String) throws {
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw CommandFailure(
                kind: .fileError, message: "\(command): cannot read '\(path)': it is a folder, not a file")
        }
        guard let file = fopen(path, "r") else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure(
                kind: .fileError,
                message:
                    "\(command): cannot read '\(path)': \(reason.prefix(1).lowercased() + reason.dropFirst())"
            )
        }
        self.file = file
    }

    deinit {
        free(buffer)
        fclose(file)
    }

    /// The next line, or `nil` at the end of the file.
    func next() -> Line? {
        let count = getline(&buffer, &capacity, file)
        guard count >= 0, let buffer else { return nil }
        number += 1
        var length = count
        if length > 0, buffer[length - 1] == 0x0A { length -= 1 }
        if length > 0, buffer[length - 1] == 0x0D { length -= 1 }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
        var text = String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
        if number == 1, let first = text, first.hasPrefix("\u{FEFF}") { text = String(first.dropFirst()) }
        return Line(number: number, text: text)
    }
}
