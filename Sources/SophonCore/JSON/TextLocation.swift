/// A 1-based line and column in a text, for messages that point at a UTF-8 byte offset.
public struct TextLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number; a line ends after each `\n`.
    public var line: Int
    /// 1-based column, counted in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a location from its parts.
    /// - Parameters:
    ///   - line: 1-based line.
    ///   - column: 1-based column in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The location of a UTF-8 byte offset in `text`. Offsets past the end are clamped to the
    /// end; negative offsets to the start.
    /// - Parameters:
    ///   - utf8Offset: byte offset into `text.utf8`.
    ///   - text: the text the offset points into.
    public init(utf8Offset: Int, in text: String) {
        var text = text
        self = text.withUTF8 { TextLocation(utf8Offset: utf8Offset, in: $0) }
    }

    /// The location of `utf8Offset` in a UTF-8 buffer (clamped to the buffer).
    init(utf8Offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let limit = min(max(utf8Offset, 0), bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < limit {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(line: line, column: column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}
