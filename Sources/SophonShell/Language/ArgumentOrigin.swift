/// Where a prompt-like command's raw argument starts in its source, so that an error the
/// command finds inside the argument at run time (a `schema` SPEC's syntax error) is shown as
/// a parse error is: `FILE:LINE:COL: error: ...`, the source line, a caret under the column.
struct ArgumentOrigin: Sendable, Hashable {
    /// The source name: a path, `-c:N`, `<stdin>` or `<input>`.
    var sourceName: String
    /// The physical line of the argument's first character (1-based).
    var line: Int
    /// The column of the argument's first character on that line (1-based, in characters);
    /// for a quoted argument, the column of its opening quote.
    var column: Int
    /// The physical lines from ``line`` to the argument's last, without their newlines.
    var lines: [String]
    /// Whether the argument is a `"""` block (its value starts on the line after ``line``).
    var isBlock: Bool

    /// The syntax error for `offset` (0-based, in characters) of `argument`, the argument's
    /// value; `nil` when that place cannot be found in the source as typed (an expansion, an
    /// escape or a continued line changed the text before it).
    ///
    /// - Parameters:
    ///   - message: the message, without location.
    ///   - commandLine: the first physical line of the command, the LINE of the header.
    func error(_ message: String, at offset: Int, in argument: String, commandLine: Int) -> ShellSyntaxError?
    {
        let valueLines = argument.split(separator: "\n", omittingEmptySubsequences: false)
        var lineIndex = 0
        var column = 0
        for character in argument.prefix(offset) {
            if character == "\n" {
                lineIndex += 1
                column = 0
            } else {
                column += 1
            }
        }
        let physicalIndex = isBlock ? lineIndex + 1 : lineIndex
        guard lineIndex < valueLines.count, physicalIndex < lines.count, isBlock || lineIndex == 0 else {
            return nil
        }
        let physical = lines[physicalIndex]
        let value = valueLines[lineIndex]
        let start: Int
        if isBlock {
            // A block's line is the physical line less the closing delimiter's indentation.
            guard physical.hasSuffix(value) else { return nil }
            start = physical.count - value.count + 1
        } else {
            let rest = physical.dropFirst(self.column - 1)
            if rest.hasPrefix(value) {
                start = self.column
            } else if let quote = rest.first, quote == "\"" || quote == "'", rest.dropFirst().hasPrefix(value)
            {
                start = self.column + 1
            } else {
                return nil
            }
        }
        var error = ShellSyntaxError(
            sourceName: sourceName, line: line + physicalIndex, column: start + column, message: message,
            sourceLine: physical)
        if error.line != commandLine { error.commandLine = commandLine }
        return error
    }
}
