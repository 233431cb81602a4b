/// A place in a prompt file: 1-based line and column (of the file, not of the frontmatter).
public struct PromptLocation: Sendable, Hashable {
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// The place at `line`, `column`.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
