extension ShellLexer {
    /// Reads a `"""` block at `start` (the first quote), as Swift reads multi-line strings.
    ///
    /// The opening `"""` ends its line (trailing blanks allowed); the closing `"""` starts its
    /// own line after optional indentation and is followed by a blank, a newline or the end.
    /// The newlines next to the delimiters are not part of the value. The closing line's
    /// indentation is removed from every content line; a content line that does not start with
    /// it is an error, except a blank-only line, which becomes empty. Escapes and `$` apply as
    /// in double quotes, and a backslash at the end of a content line joins the next one.
    mutating func lexBlock(into builder: inout WordBuilder, start: Int) {
        builder.isQuoted = true
        builder.isBlock = true
        position = start + 3
        while ShellLexer.isBlank(peek()) { position += 1 }
        if !isAtLineEnd {
            fail("nothing may follow an opening \"\"\" on its line", at: position)
            while !isAtLineEnd { position += 1 }
        }
        // Collect the content lines up to the closing delimiter.
        var lines: [Range<Int>] = []
        var lineStart = position + 1
        var closing: (indentStart: Int, indentEnd: Int)?
        while lineStart <= scalars.count, position < scalars.count {
            var lineEnd = lineStart
            while lineEnd < scalars.count, scalars[lineEnd] != "\n" { lineEnd += 1 }
            var indentEnd = lineStart
            while indentEnd < lineEnd, ShellLexer.isBlank(scalars[indentEnd]) { indentEnd += 1 }
            if indentEnd + 3 <= lineEnd, scalars[indentEnd] == "\"", scalars[indentEnd + 1] == "\"",
                scalars[indentEnd + 2] == "\""
            {
                closing = (lineStart, indentEnd)
                break
            }
            lines.append(lineStart..<lineEnd)
            if lineEnd >= scalars.count { break }
            lineStart = lineEnd + 1
        }
        guard let closing else {
            fail("unterminated \"\"\" block", at: start, isIncomplete: true)
            position = scalars.count
            return
        }
        let indentation = Array(scalars[closing.indentStart..<closing.indentEnd])
        for (number, line) in lines.enumerated() {
            let content = strippingIndentation(indentation, from: line)
            let isLast = number == lines.count - 1
            let joinsNext = lexEscaped(
                from: content.lowerBound, to: content.upperBound, context: .block(lastLine: isLast),
                into: &builder)
            if !isLast, !joinsNext { builder.append("\n") }
        }
        position = closing.indentEnd + 3
        if !isAtLineEnd, !ShellLexer.isBlank(peek()) {
            fail("expected a blank or the end of the line after the closing \"\"\"", at: position)
        }
    }

    /// The part of `line` after `indentation`, reporting a line that does not start with it.
    private mutating func strippingIndentation(
        _ indentation: [Unicode.Scalar], from line: Range<Int>
    ) -> Range<Int> {
        let length = line.count
        for (offset, expected) in indentation.enumerated() {
            guard offset < length else {
                // A line of blanks shorter than the indentation becomes an empty line.
                return line.upperBound..<line.upperBound
            }
            let actual = scalars[line.lowerBound + offset]
            if actual != expected {
                let blankOnly = scalars[line].allSatisfy { ShellLexer.isBlank($0) }
                if blankOnly { return line.upperBound..<line.upperBound }
                fail(
                    "insufficient indentation: each line of a \"\"\" block must start with the closing \"\"\"'s indentation",
                    at: line.lowerBound + offset)
                var skipped = line.lowerBound + offset
                while skipped < line.upperBound, ShellLexer.isBlank(scalars[skipped]) { skipped += 1 }
                return skipped..<line.upperBound
            }
        }
        return (line.lowerBound + indentation.count)..<line.upperBound
    }

    /// Reads the raw argument of a prompt-like command: the rest of the command as typed.
    ///
    /// `$` expands and `\$` is a literal `$`; a backslash-newline joins the next line; every
    /// other character, quotes, `#` and other backslashes included, is kept. Trailing blanks
    /// are dropped. When the argument starts with a quote or `"""`, that one quoted word is the
    /// argument, and only blanks or a comment may follow it.
    ///
    /// - Returns: the argument, or `nil` when nothing but blanks is left.
    mutating func lexRawArgument() -> ShellWord? {
        skipBlanks()
        guard !isAtLineEnd else { return nil }
        if peek() == "\"" || peek() == "'" {
            let word = lexWord()
            skipBlanks()
            skipComment()
            if !isAtLineEnd {
                fail(
                    "unexpected text after the quoted argument; quote all of the argument or none of it",
                    at: position)
                while !isAtLineEnd { position += 1 }
            }
            return word
        }
        var builder = WordBuilder()
        while let scalar = peek(), scalar != "\n" {
            if scalar == "$" {
                position = lexDollar(at: position, limit: scalars.count, into: &builder)
            } else if scalar == "\\" {
                if consumeContinuation() { continue }
                if peek(1) == "$" {
                    builder.append("$")
                    position += 2
                } else if peek(1) == nil {
                    fail(
                        "a backslash at the end of the input continues nothing", at: position,
                        isIncomplete: true)
                    position += 1
                } else {
                    builder.append("\\")
                    position += 1
                }
            } else {
                builder.append(scalar)
                position += 1
            }
        }
        builder.trimTrailingBlanks()
        return builder.isEmpty ? nil : builder.word
    }
}
