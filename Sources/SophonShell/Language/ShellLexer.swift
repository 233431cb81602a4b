/// Reads words from a ``ShellSource``, one command at a time (docs/language.md, "Words and quotes").
///
/// Blanks are spaces and tabs. A backslash-newline outside single quotes is removed; one that
/// ends the input is an error. `#` starts a comment only at the start of a word. In a bare
/// word a backslash escapes a blank, a quote, `$`, `#` or a backslash, and stays before
/// anything else (`^\d{4}$`, see ``isEscapableInBareWord(_:)``). Single quotes are literal; double quotes and `"""`
/// blocks (see ``lexBlock(into:start:)``) take the escapes `\"` `\\` `\n` `\t` `\$` `\u{X}` and
/// expand `$`. The lexer never stops at an error: it records the first one in ``firstError``
/// and reads on to the end of the command, so the next command starts in the right place.
struct ShellLexer {
    /// The input.
    let source: ShellSource
    /// The next scalar offset to read.
    var position: Int
    /// The first error met since the last ``clearError()``; marked incomplete when the input
    /// ended inside an open construct anywhere in the command, even after an earlier error, so
    /// the REPL still asks for the rest.
    var firstError: ShellSyntaxError? {
        guard let error = recordedError, endedInsideConstruct, !error.isIncomplete else {
            return recordedError
        }
        return ShellSyntaxError(
            sourceName: error.sourceName, line: error.line, column: error.column, message: error.message,
            sourceLine: error.sourceLine, isIncomplete: true)
    }
    private var recordedError: ShellSyntaxError?
    private var endedInsideConstruct = false

    /// A lexer at the start of `source`.
    init(source: ShellSource, position: Int = 0) {
        self.source = source
        self.position = position
    }

    /// The input's scalars.
    var scalars: [Unicode.Scalar] { source.scalars }
    /// Whether everything has been read.
    var isAtEnd: Bool { position >= scalars.count }

    /// The scalar `offset` places ahead, or `nil` past the end.
    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    /// Forgets the recorded error (at the start of each command).
    mutating func clearError() {
        recordedError = nil
        endedInsideConstruct = false
    }

    /// Records an error unless one is already recorded for this command.
    /// - Parameters:
    ///   - message: what is wrong.
    ///   - offset: the scalar offset the caret points to.
    ///   - isIncomplete: whether the input ended inside an open construct.
    mutating func fail(_ message: String, at offset: Int, isIncomplete: Bool = false) {
        if isIncomplete { endedInsideConstruct = true }
        guard recordedError == nil else { return }
        recordedError = source.error(message, at: offset, isIncomplete: isIncomplete)
    }

    /// Whether `scalar` is a blank: a space or a tab.
    static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == " " || scalar == "\t" }

    /// Whether a backslash before `scalar` in a bare word escapes it: a blank, a quote, `$`, `#`
    /// or a backslash (`a\ b`, `\$5`, `\#1`, `\\`). Before anything else the backslash is kept
    /// (`^\d{4}$` is the regular expression as typed).
    static func isEscapableInBareWord(_ scalar: Unicode.Scalar) -> Bool {
        isBlank(scalar) || ["'", "\"", "$", "#", "\\"].contains(scalar)
    }

    /// Consumes `\` + newline at the position, reporting one that ends the input.
    /// - Returns: whether a continuation was consumed.
    mutating func consumeContinuation() -> Bool {
        guard peek() == "\\", peek(1) == "\n" else { return false }
        let backslash = position
        position += 2
        if isAtEnd {
            fail("a backslash at the end of the input continues nothing", at: backslash, isIncomplete: true)
        }
        return true
    }

    /// Skips blanks and backslash-newlines.
    mutating func skipBlanks() {
        while true {
            if ShellLexer.isBlank(peek()) {
                position += 1
            } else if !consumeContinuation() {
                return
            }
        }
    }

    /// Whether the position is at a newline or the end of the input.
    var isAtLineEnd: Bool { isAtEnd || peek() == "\n" }

    /// Skips a comment (from `#` to the end of the physical line) when one starts here.
    mutating func skipComment() {
        guard peek() == "#" else { return }
        while !isAtLineEnd { position += 1 }
    }

    /// Skips blanks, then reads the next word of the command.
    /// - Returns: the word and the offset where it starts, or `nil` at the end of the command
    ///   (newline, end of input, or a comment, which is skipped).
    mutating func nextWord() -> (word: ShellWord, start: Int)? {
        skipBlanks()
        skipComment()
        guard !isAtLineEnd else { return nil }
        let start = position
        return (lexWord(), start)
    }

    /// Reads every remaining word of the command.
    mutating func remainingWords() -> [ShellWord] {
        var words: [ShellWord] = []
        while let (word, _) = nextWord() { words.append(word) }
        return words
    }

    /// Reads one word starting at the position (which is not a blank, newline or the end).
    mutating func lexWord() -> ShellWord {
        var builder = WordBuilder()
        let start = position
        while let scalar = peek(), !ShellLexer.isBlank(scalar), scalar != "\n" {
            switch scalar {
            case "\\":
                if consumeContinuation() { continue }
                guard let next = peek(1) else {
                    fail(
                        "a backslash at the end of the input continues nothing", at: position,
                        isIncomplete: true)
                    position += 1
                    continue
                }
                guard ShellLexer.isEscapableInBareWord(next) else {
                    // `\d`, `\s`, `\.`: kept as typed, for regular expressions (`matches ^\d{4}$`).
                    builder.append(scalar)
                    position += 1
                    continue
                }
                builder.isQuoted = true
                builder.append(next)
                position += 2
            case "'":
                lexSingleQuoted(into: &builder)
            case "\"":
                if peek(1) == "\"", peek(2) == "\"" {
                    if position != start {
                        fail("a \"\"\" block must be a word of its own", at: position)
                    }
                    lexBlock(into: &builder, start: position)
                    return builder.word
                }
                lexDoubleQuoted(into: &builder)
            case "$":
                position = lexDollar(at: position, limit: scalars.count, into: &builder)
            default:
                builder.append(scalar)
                position += 1
            }
        }
        return builder.word
    }

    /// `'...'`: everything literal up to the next `'`, newlines included.
    private mutating func lexSingleQuoted(into builder: inout WordBuilder) {
        let open = position
        builder.isQuoted = true
        position += 1
        while let scalar = peek(), scalar != "'" {
            builder.append(scalar)
            position += 1
        }
        if isAtEnd {
            fail("unterminated single quote", at: open, isIncomplete: true)
        } else {
            position += 1
        }
    }

    /// `"..."`: finds the closing quote (skipping escaped characters), then reads the content.
    private mutating func lexDoubleQuoted(into builder: inout WordBuilder) {
        let open = position
        builder.isQuoted = true
        var close = open + 1
        while close < scalars.count, scalars[close] != "\"" {
            close += scalars[close] == "\\" ? 2 : 1
        }
        guard close < scalars.count else {
            fail("unterminated double quote", at: open, isIncomplete: true)
            _ = lexEscaped(from: open + 1, to: scalars.count, context: .doubleQuotes, into: &builder)
            position = scalars.count
            return
        }
        _ = lexEscaped(from: open + 1, to: close, context: .doubleQuotes, into: &builder)
        position = close + 1
    }

    /// Where escapes are read, for messages and for `"""` rules.
    enum EscapeContext {
        /// Inside `"..."`.
        case doubleQuotes
        /// One content line of a `"""` block; `lastLine` when no content line follows.
        case block(lastLine: Bool)

        /// How the context is named in messages.
        var name: String {
            switch self {
            case .doubleQuotes: "double quotes"
            case .block: "a \"\"\" block"
            }
        }
    }

    /// Reads quoted content in `start..<end`: escapes and `$` expansions.
    ///
    /// - Returns: `true` when the range ends with a backslash that joins the next line of a
    ///   `"""` block (the newline is then not part of the value).
    mutating func lexEscaped(
        from start: Int, to end: Int, context: EscapeContext, into builder: inout WordBuilder
    ) -> Bool {
        var index = start
        while index < end {
            let scalar = scalars[index]
            if scalar == "$" {
                index = lexDollar(at: index, limit: end, into: &builder)
                continue
            }
            if case .block = context, scalar == "\"", index + 2 < end, scalars[index + 1] == "\"",
                scalars[index + 2] == "\""
            {
                fail(
                    "\"\"\" inside a block must be escaped as \\\"\"\"; the closing \"\"\" starts its own line",
                    at: index)
            }
            guard scalar == "\\" else {
                builder.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < end else {
                if case .block(let lastLine) = context, !lastLine { return true }
                fail("a backslash at the end of a block's last line escapes nothing", at: index)
                return false
            }
            let escaped = scalars[index + 1]
            switch escaped {
            case "\"", "\\", "$": builder.append(escaped)
            case "n": builder.append("\n")
            case "t": builder.append("\t")
            case "\n": break
            case "u":
                if let (value, length) = unicodeEscape(at: index, end: end) {
                    builder.append(value)
                    index += length
                    continue
                }
                fail(
                    "invalid unicode escape in \(context.name): expected \\u{XXXX} with 1 to 8 hex digits naming a Unicode scalar",
                    at: index)
            default:
                fail(
                    "invalid escape '\\\(String(escaped))' in \(context.name); the escapes are \\\" \\\\ \\n \\t \\$ \\u{XXXX}",
                    at: index)
                builder.append(escaped)
            }
            index += 2
        }
        return false
    }

    /// Reads `\u{XXXX}` at `index` (the backslash).
    /// - Returns: the scalar and the escape's length in scalars, or `nil` when malformed.
    private func unicodeEscape(at index: Int, end: Int) -> (Unicode.Scalar, Int)? {
        guard index + 2 < end, scalars[index + 2] == "{" else { return nil }
        var cursor = index + 3
        var digits = ""
        while cursor < end, digits.count <= 8, scalars[cursor].properties.isASCIIHexDigit {
            digits.unicodeScalars.append(scalars[cursor])
            cursor += 1
        }
        guard (1...8).contains(digits.count), cursor < end, scalars[cursor] == "}",
            let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, cursor + 1 - index)
    }
}

/// Collects the parts of a word, merging adjacent literals.
struct WordBuilder {
    private var parts: [ShellWordPart] = []
    /// The literal text since the last expansion. A `String`, not a `UnicodeScalarView`: the
    /// view's `append(contentsOf:)` builds a new string each time, which made a long `"""`
    /// block quadratic in its lines.
    private var pending = ""
    /// Whether a quote or escape was used.
    var isQuoted = false
    /// Whether the word is a `"""` block.
    var isBlock = false

    /// Appends literal text.
    mutating func append(_ scalar: Unicode.Scalar) { pending.unicodeScalars.append(scalar) }

    /// Appends literal text.
    mutating func append(_ text: String) { pending += text }

    /// Appends an expansion.
    mutating func append(_ reference: VariableReference) {
        flush()
        parts.append(.expansion(reference))
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        parts.append(.literal(pending))
        pending = ""
    }

    /// Drops blanks at the end of the last literal (raw arguments).
    mutating func trimTrailingBlanks() {
        while let last = pending.unicodeScalars.last, ShellLexer.isBlank(last) {
            pending.unicodeScalars.removeLast()
        }
    }

    /// Whether nothing has been collected.
    var isEmpty: Bool { parts.isEmpty && pending.isEmpty }

    /// The finished word.
    var word: ShellWord {
        var copy = self
        copy.flush()
        return ShellWord(copy.parts, isQuoted: isQuoted, isBlock: isBlock)
    }
}
