/// A mistake in schema type syntax or concise syntax, with its location.
///
/// `line` and `column` are 1-based; columns count characters (grapheme clusters) from the start
/// of the line. The description reads `expected ':' after property name at column 12`, with
/// `line L, column C` when the input has more than one line.
public struct GeminiSchemaSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, without the location.
    public let message: String
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem on its line.
    public let column: Int
    /// Whether the input had several lines (the description then names the line).
    public let isMultiline: Bool

    /// Creates an error.
    public init(message: String, line: Int, column: Int, isMultiline: Bool = false) {
        self.message = message
        self.line = line
        self.column = column
        self.isMultiline = isMultiline
    }

    /// `MESSAGE at column C`, or `MESSAGE at line L, column C` for multi-line input.
    public var description: String {
        isMultiline ? "\(message) at line \(line), column \(column)" : "\(message) at column \(column)"
    }
}
