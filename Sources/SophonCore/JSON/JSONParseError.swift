/// Why strict JSON parsing (``JSONValue/init(parsing:)``) failed, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 byte offset in the input where the problem was found.
    public var offset: Int
    /// 1-based line of ``offset`` (lines end at `\n`).
    public var line: Int
    /// 1-based column of ``offset``, counted in Unicode scalars from the start of the line.
    public var column: Int
    /// What is wrong, e.g. `expected ',' or '}' but found ']'`.
    public var message: String

    /// Creates an error.
    /// - Parameters:
    ///   - offset: UTF-8 byte offset of the problem.
    ///   - line: 1-based line of the offset.
    ///   - column: 1-based column of the offset, in Unicode scalars.
    ///   - message: what is wrong.
    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: MESSAGE`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
