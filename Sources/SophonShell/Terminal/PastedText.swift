/// The editor-independent half of bracketed paste, unit-tested without a terminal.
///
/// With bracketed paste on, the terminal wraps pasted text in `ESC [ 200 ~` ... `ESC [ 201 ~`.
/// The editor reads everything up to the end marker and inserts it literally, so a Tab in
/// the paste is a Tab (not completion) and no marker stays in the line. A line break in the
/// paste (CR, LF or CR LF) enters the line, and the rest is pasted into the next one, so a
/// pasted `"""` block runs as one command.
enum PastedText {
    /// What the terminal sends before pasted text.
    static let startMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E]
    /// What the terminal sends after pasted text.
    static let endMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    /// Whether `bytes` (read so far after the start marker) end with the end marker.
    static func endsWithEndMarker(_ bytes: [UInt8]) -> Bool {
        bytes.count >= endMarker.count && Array(bytes.suffix(endMarker.count)) == endMarker
    }

    /// The pasted text of `bytes` read up to and including the end marker: the marker is
    /// removed, and so are NUL bytes (a C string cannot carry them).
    static func content(_ bytes: [UInt8]) -> [UInt8] {
        let body = endsWithEndMarker(bytes) ? Array(bytes.dropLast(endMarker.count)) : bytes
        return body.filter { $0 != 0 }
    }

    /// One line of a paste and what follows it.
    struct Line: Equatable {
        /// The text to insert (valid UTF-8: invalid bytes became U+FFFD), without the break.
        var text: String
        /// Whether a line break followed (the line is entered).
        var endsLine: Bool
        /// The bytes after the break, pasted into the next line.
        var rest: [UInt8]
    }

    /// Splits `bytes` at the first CR, LF or CR LF.
    static func firstLine(_ bytes: [UInt8]) -> Line {
        guard let index = bytes.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }) else {
            return Line(text: String(decoding: bytes, as: UTF8.self), endsLine: false, rest: [])
        }
        var next = index + 1
        if bytes[index] == 0x0D, next < bytes.count, bytes[next] == 0x0A { next += 1 }
        return Line(
            text: String(decoding: bytes[..<index], as: UTF8.self), endsLine: true,
            rest: Array(bytes[next...]))
    }
}
