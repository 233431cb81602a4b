import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file one physical line at a time, so a long input never sits whole in memory, and
/// a line longer than ``maximumLineBytes`` (a file with no line breaks, `/dev/zero`) is skipped
/// rather than read whole. Lines end at `\n`; a `\r` before it is dropped. Line numbers are
/// 1-based.
final class BulkLineReader {
    /// One physical line.
    struct Line {
        /// 1-based physical line number.
        var number: Int
        /// The line's text, or `nil` when it is not valid UTF-8 or too long.
        var text: String?
        /// Whether the line was longer than the reader's limit (then `text` is `nil`).
        var isTooLong = false
        /// Whether the line ended with `\r\n` (the `\r` is not in `text`): a CSV field that spans
        /// lines keeps the break as written (RFC 4180).
        var endedWithCRLF = false

        /// Why `text` is `nil`: `not valid UTF-8`, or `longer than 64 MiB`.
        var unreadable: String {
            isTooLong ? "longer than \(BulkLineReader.maximumLineBytes >> 20) MiB" : "not valid UTF-8"
        }

        /// The line as one JSON object, the one rule for a JSON Lines input (`run`, `batch
        /// submit`, `embed-multi`).
        /// - Returns: the object's members, in order; `nil` for a blank line (skipped).
        /// - Throws: ``BulkInputIssue`` for a line that is not UTF-8 or too long, not JSON (`not
        ///   valid JSON (column 3: ...)`), not an object (`expected a JSON object, got array`), or
        ///   that has a member twice (`"prompt" appears twice; keep one`: which one was meant
        ///   cannot be known; never the last silently).
        func object() throws(BulkInputIssue) -> [JSONMember]? {
            guard let text else { throw BulkInputIssue(line: number, message: unreadable) }
            guard text.contains(where: { !$0.isWhitespace }) else { return nil }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: text)
            } catch {
                throw BulkInputIssue(
                    line: number, message: "not valid JSON (column \(error.column): \(error.message))")
            }
            guard case .object(let members) = value else {
                throw BulkInputIssue(line: number, message: "expected a JSON object, got \(value.typeName)")
            }
            var seen = Set<String>()
            if let doubled = members.first(where: { !seen.insert($0.key).inserted }) {
                throw BulkInputIssue(line: number, message: "\"\(doubled.key)\" appears twice; keep one")
            }
            return members
        }
    }

    /// The longest line read, in bytes: far past any request Gemini takes (20 MB inline).
    static let maximumLineBytes = 64 << 20

    private let file: UnsafeMutablePointer<FILE>
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var number = 0
    private let limit: Int

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - path: the file to read.
    ///   - command: the command reading it, which starts the error message.
    ///   - limit: the longest line read, in bytes (``maximumLineBytes``; smaller in tests).
    /// - Throws: ``CommandFailure`` `fileError`: `COMMAND: cannot read 'PATH': REASON`.
    init(path: String, command: String, limit: Int = BulkLineReader.maximumLineBytes) throws {
        self.limit = limit
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
        fclose(file)
    }

    /// The next line, or `nil` at the end of the file.
    func next() -> Line? {
        var line: [UInt8] = []
        var tooLong = false
        var readAny = false
        while true {
            if start == end {
                end = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                start = 0
                if end == 0 { break }
            }
            readAny = true
            let newline = chunk[start..<end].firstIndex(of: 0x0A)
            let stop = newline.map { $0 + 1 } ?? end
            if !tooLong {
                line.append(contentsOf: chunk[start..<stop])
                if line.count > limit + 1 {
                    tooLong = true
                    line = []
                }
            }
            start = stop
            if newline != nil { break }
        }
        guard readAny else { return nil }
        number += 1
        if tooLong { return Line(number: number, text: nil, isTooLong: true) }
        var endedWithCRLF = false
        if line.last == 0x0A {
            line.removeLast()
            if line.last == 0x0D {
                line.removeLast()
                endedWithCRLF = true
            }
        } else if line.last == 0x0D {
            line.removeLast()
        }
        var text = String(validating: line, as: UTF8.self)
        if number == 1, let first = text, first.hasPrefix("\u{FEFF}") { text = String(first.dropFirst()) }
        return Line(number: number, text: text, endedWithCRLF: endedWithCRLF)
    }
}
