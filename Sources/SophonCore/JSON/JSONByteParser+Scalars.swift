extension JSONNumber {
    /// Wraps text the parser has already checked against the JSON number grammar.
    init(checkedText: String) { self.text = checkedText }
}

extension JSONByteParser {
    /// The text of `range` (a whole number of UTF-8 scalars of the input).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The text of `piece`, unescaped.
    func text(_ piece: JSONPiece) -> String { JSONTreeBuilder.string(piece, bytes) }

    /// The character at `offset` for messages: `'x'`, `U+000A` for controls, `end of input`.
    func describe(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = bytes[offset]
        if byte < 0x20 || byte == 0x7F { return "U+" + hex4(UInt32(byte)) }
        var length = 1
        while offset + length < end, bytes[offset + length] & 0xC0 == 0x80 { length += 1 }
        return "'" + text(offset..<offset + length) + "'"
    }

    /// Skips whitespace; in lenient mode also `//`, `#` and `/* */` comments (recorded). A
    /// quote inside a comment is part of the comment.
    /// - Parameter hashComments: whether `#` starts a comment; not where a member's value is
    ///   expected, since `{"color": #fff}` holds a word there.
    mutating func skipInsignificant(hashComments: Bool = true) throws(JSONParseFailure) {
        while position < end {
            let byte = bytes[position]
            if ASCII.isWhitespace(byte) {
                position += 1
                continue
            }
            guard isLenient, byte == ASCII.slash || (hashComments && byte == ASCII.hash) else { return }
            let start = position
            let next: UInt8 = position + 1 < end ? bytes[position + 1] : 0
            if next == ASCII.slash || byte == ASCII.hash {
                while position < end, bytes[position] != ASCII.newline { position += 1 }
            } else if next == ASCII.asterisk {
                position += 2
                while position < end,
                    !(bytes[position] == ASCII.asterisk && position + 1 < end
                        && bytes[position + 1] == ASCII.slash)
                {
                    position += 1
                }
                position = min(position + 2, end)
            } else if position + 1 == end {
                position = end  // A lone `/` cut by the end: the start of a comment.
            } else {
                return
            }
            repair(.removedComment, at: start, "removed the comment")
        }
    }

    /// Reads a string, number or literal at ``position``. Returns `nil` (lenient mode only)
    /// when the token was cut by the end of the region before it became a value; ``position``
    /// is then at the end.
    /// - Parameter allowBareWord: whether an unquoted word is read as a string (lenient mode,
    ///   object member values; array elements go through ``readsBareElement(expect:)``; at
    ///   the top level a word is prose).
    mutating func readScalar(allowBareWord: Bool = false) throws(JSONParseFailure) -> JSONScalar? {
        let start = position
        let byte = bytes[position]
        if byte == ASCII.quote || (isLenient && (byte == ASCII.apostrophe || isCurlyOpener(at: position))) {
            let (value, complete) = try readString()
            if !complete {
                repair(.closedString, at: start, "closed the unterminated string that starts")
            }
            return .string(value)
        }
        if byte == ASCII.minus || ASCII.isDigit(byte)
            || (isLenient && (byte == ASCII.plus || byte == ASCII.dot))
        {
            guard isLenient, allowBareWord else { return try readNumber() }
            let mark = repairMark()
            let evidenceBefore = evidence
            let number = try? readNumber()
            if gluesToWord(at: position) {
                // `12px`, `50%`, `2024-01-15`, `12:30`: one word, not a number.
                rollBack(to: mark)
                evidence = evidenceBefore
                position = start
                return readBareWord()
            }
            guard let number else {
                position = start
                return try readNumber()  // Throws the same failure again.
            }
            return number
        }
        if ASCII.isLetter(byte) { return try readWord(allowBareWord: allowBareWord) }
        if isLenient, allowBareWord, ASCII.isKeyStart(byte) || byte == ASCII.hash { return readBareWord() }
        throw .syntax(offset: start, message: "expected a JSON value but found \(describe(at: start))")
    }

    /// Reads a number. Lenient mode cuts a number missing its last digits back to its valid
    /// part (`1.` -> `1`), rewrites `+1` and `.5` as `1` and `0.5`, keeps `007` as the string
    /// `"007"`, reads
    /// `-Infinity` as `null`, and refuses a number longer than ``maxNumberLength``.
    mutating func readNumber() throws(JSONParseFailure) -> JSONScalar? {
        let start = position
        var cursor = position
        var sign = ""
        var normalized = false
        if bytes[cursor] == ASCII.minus {
            sign = "-"
            cursor += 1
        } else if bytes[cursor] == ASCII.plus {
            normalized = true
            cursor += 1
        }
        let integerStart = cursor
        while cursor < end, ASCII.isDigit(bytes[cursor]) { cursor += 1 }
        var integer = ""
        if cursor == integerStart {
            if isLenient, cursor < end, ASCII.isLetter(bytes[cursor]) {
                var wordEnd = cursor
                while wordEnd < end, ASCII.isLetter(bytes[wordEnd]) { wordEnd += 1 }
                if text(cursor..<wordEnd) == "Infinity" {
                    position = wordEnd
                    let shown = text(start..<wordEnd)
                    repair(.replacedNonFiniteNumber, at: start, "replaced '\(shown)' with null")
                    return .null
                }
            }
            if isLenient, cursor + 1 < end, bytes[cursor] == ASCII.dot, ASCII.isDigit(bytes[cursor + 1]) {
                integer = "0"
                normalized = true
            } else if isLenient, cursor == end {
                position = end
                return nil
            } else {
                let message =
                    "expected a digit after '\(text(start..<cursor))' but found \(describe(at: cursor))"
                if cursor == end { throw .endOfInput(offset: cursor, message: message) }
                throw .syntax(offset: cursor, message: message)
            }
        } else {
            if cursor - integerStart > 1, bytes[integerStart] == ASCII.zero {
                guard isLenient else {
                    throw .syntax(offset: integerStart, message: "a number cannot start with a leading zero")
                }
                // `007`, `01234`: an identifier or code more often than a count; kept as the
                // string of its text (nothing lost; a lenient decoder still reads it as 7).
                while cursor < end, ASCII.isDigit(bytes[cursor]) || bytes[cursor] == ASCII.dot { cursor += 1 }
                position = cursor
                if cursor - start > maxNumberLength {
                    throw .runawayNumber(offset: start, length: cursor - start)
                }
                repair(
                    .normalizedNumber, at: start,
                    "kept the number '\(text(start..<cursor))' with leading zeros as the string "
                        + "\"\(text(start..<cursor))\"")
                evidence += 1
                return .string(.span(start..<cursor))
            }
        }
        let integerEnd = cursor
        var validEnd = cursor
        if cursor < end, bytes[cursor] == ASCII.dot {
            cursor += 1
            let fractionStart = cursor
            while cursor < end, ASCII.isDigit(bytes[cursor]) { cursor += 1 }
            if cursor > fractionStart { validEnd = cursor }
        }
        if validEnd == cursor, cursor < end, bytes[cursor] | 0x20 == 0x65 {  // e or E
            cursor += 1
            if cursor < end, bytes[cursor] == ASCII.plus || bytes[cursor] == ASCII.minus { cursor += 1 }
            let exponentStart = cursor
            while cursor < end, ASCII.isDigit(bytes[cursor]) { cursor += 1 }
            if cursor > exponentStart { validEnd = cursor }
        }
        position = cursor
        if isLenient, cursor - start > maxNumberLength {
            throw .runawayNumber(offset: start, length: cursor - start)
        }
        evidence += 1
        // Common case: the text as written. Rewritten forms drop a `+` or add a `0`.
        let kept: JSONPiece =
            normalized
            ? .literal(
                sign + (integer.isEmpty ? text(integerStart..<integerEnd) : integer)
                    + text(integerEnd..<validEnd))
            : .span(start..<validEnd)
        if validEnd != cursor {
            guard isLenient else {
                let message = "expected a digit in the number but found \(describe(at: cursor))"
                if cursor == end { throw .endOfInput(offset: cursor, message: message) }
                throw .syntax(offset: cursor, message: message)
            }
            repair(
                .completedNumber, at: start,
                "cut the incomplete number '\(text(start..<cursor))' back to '\(text(kept))'")
        } else if normalized {
            repair(
                .normalizedNumber, at: start,
                "rewrote the number '\(text(start..<cursor))' as '\(text(kept))'")
        }
        return .number(kept)
    }

    /// Reads `true`, `false` or `null`; lenient mode also Python's `True`, `False`, `None`,
    /// `NaN`, `Infinity`, `undefined`, `NULL`, `Null` and `nil` (as `null`), completes a literal cut by the end
    /// (`tru`), and, when `allowBareWord` is set, reads any other word as a string.
    mutating func readWord(allowBareWord: Bool) throws(JSONParseFailure) -> JSONScalar {
        let start = position
        while position < end, ASCII.isLetter(bytes[position]) { position += 1 }
        let word = text(start..<position)
        let wordEnds = position == end || !ASCII.isKeyStart(bytes[position])
        if wordEnds, let value = literal(word, at: start) { return value }
        if isLenient, position == end {
            let candidates: [(String, JSONScalar)] = [
                ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
                ("True", .bool(true)), ("False", .bool(false)), ("None", .null),
            ]
            for (literal, value) in candidates where literal.hasPrefix(word) {
                let json = value.literalText
                repair(.completedLiteral, at: start, "completed the cut literal '\(word)' as '\(json)'")
                evidence += 1
                return value
            }
        }
        if isLenient, allowBareWord {
            position = start
            return readBareWord()
        }
        let shown = word.count > 20 ? String(word.prefix(20)) + "..." : word
        let message = "expected a JSON value but found '\(shown)'"
        // `tr` at the end: a literal the end cut, the start of a JSON text.
        if position == end, ["true", "false", "null"].contains(where: { $0.hasPrefix(word) }) {
            throw .endOfInput(offset: start, message: message)
        }
        throw .syntax(offset: start, message: message)
    }

    /// The value of a whole literal word, or `nil`; records the repair of a non-JSON one.
    private mutating func literal(_ word: String, at start: Int) -> JSONScalar? {
        let value: JSONScalar
        switch word {
        case "true": value = .bool(true)
        case "false": value = .bool(false)
        case "null": value = .null
        default:
            guard isLenient else { return nil }
            switch word {
            case "True", "False", "None":
                value = word == "None" ? .null : .bool(word == "True")
                repair(
                    .convertedPythonLiteral, at: start,
                    "replaced the Python literal '\(word)' with '\(value.literalText)'")
            case "NaN", "Infinity":
                value = .null
                repair(.replacedNonFiniteNumber, at: start, "replaced '\(word)' with null")
            case "undefined", "NULL", "Null", "nil":
                value = .null
                repair(.convertedNullWord, at: start, "replaced '\(word)' with null")
            default:
                return nil
            }
        }
        evidence += 1
        return value
    }

    /// Whether the byte at `offset`, right after a number, makes the number part of a word
    /// (`12px`, `50%`, `2024-01-15`, `12:30`, `1/2`; not `1//` or `1/*`, comments).
    func gluesToWord(at offset: Int) -> Bool {
        guard offset < end else { return false }
        let byte = bytes[offset]
        if byte == ASCII.slash {
            let next = offset + 1 < end ? bytes[offset + 1] : 0
            return next != ASCII.slash && next != ASCII.asterisk && next != 0
        }
        return ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "%") || byte == ASCII.minus
            || byte == ASCII.colon || byte == ASCII.dot || byte == ASCII.underscore
    }

    /// Reads an unquoted word value up to `,`, `}`, `]`, the end of the line or the region,
    /// trailing spaces dropped (`{"status": in progress}` -> `"in progress"`).
    mutating func readBareWord() -> JSONScalar {
        let start = position
        while position < end {
            let byte = bytes[position]
            if byte == ASCII.comma || byte == ASCII.closeBrace || byte == ASCII.closeBracket
                || byte == ASCII.newline || byte == ASCII.carriageReturn
                || (position > start && startsTrailingComment(at: position))
            {
                break
            }
            position += 1
        }
        var last = position
        while last > start, ASCII.isWhitespace(bytes[last - 1]) { last -= 1 }
        repair(.quotedBareWord, at: start, "read the unquoted word '\(text(start..<last))' as a string")
        return .string(.span(start..<last))
    }

    /// Whether a comment (`//`, `/*` or `#`) after a space starts at `offset`, ending a word.
    private func startsTrailingComment(at offset: Int) -> Bool {
        guard offset > 0, bytes[offset - 1] == ASCII.space || bytes[offset - 1] == ASCII.tab else {
            return false
        }
        if bytes[offset] == ASCII.hash { return true }
        guard bytes[offset] == ASCII.slash, offset + 1 < end else { return false }
        return bytes[offset + 1] == ASCII.slash || bytes[offset + 1] == ASCII.asterisk
    }

    /// Reads an unquoted key: letters, digits, `_`, `$`, `@`, `-`, `.` and non-ASCII
    /// characters, kept as written (`$ref`, `_id`, `user-id`).
    mutating func readUnquotedKey() -> JSONPiece {
        let start = position
        while position < end {
            let byte = bytes[position]
            guard ASCII.isKeyCharacter(byte) else { break }
            position += 1
        }
        repair(.quotedKey, at: start, "quoted the key '\(text(start..<position))'")
        return .span(start..<position)
    }
}
