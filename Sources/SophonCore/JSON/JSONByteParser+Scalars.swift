extension JSONNumber {
    /// Wraps text the parser has already checked against the JSON number grammar.
    init(checkedText: String) { self.text = checkedText }
}

extension JSONByteParser {
    /// The text of `range` (a whole number of UTF-8 scalars of the input).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The character at `offset` for messages: `'x'`, `U+000A` for controls, `end of input`.
    func describe(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = bytes[offset]
        if byte < 0x20 || byte == 0x7F { return "U+" + hex4(UInt32(byte)) }
        var length = 1
        while offset + length < end, bytes[offset + length] & 0xC0 == 0x80 { length += 1 }
        return "'" + text(offset..<offset + length) + "'"
    }

    /// Skips whitespace; in lenient mode also `//` and `/* */` comments (recorded).
    mutating func skipInsignificant() throws(JSONParseFailure) {
        while position < end {
            let byte = bytes[position]
            if ASCII.isWhitespace(byte) {
                position += 1
                continue
            }
            guard isLenient, byte == ASCII.slash else { return }
            let start = position
            let next: UInt8 = position + 1 < end ? bytes[position + 1] : 0
            if next == ASCII.slash {
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
            repairs.append(.make(.removedComment, at: start, "removed the comment"))
        }
    }

    /// Reads a string, number or literal at ``position``. Returns `nil` (lenient mode only)
    /// when the token was cut by the end of the region before it became a value; ``position``
    /// is then at the end.
    mutating func readScalar() throws(JSONParseFailure) -> JSONValue? {
        let start = position
        let byte = bytes[position]
        if byte == ASCII.quote || (isLenient && byte == ASCII.apostrophe) {
            let (value, complete) = try readString()
            if !complete {
                repairs.append(.make(.closedString, at: start, "closed the unterminated string that starts"))
            }
            return .string(value)
        }
        if byte == ASCII.minus || ASCII.isDigit(byte) { return try readNumber() }
        if ASCII.isLetter(byte) { return try readWord() }
        throw .syntax(offset: start, message: "expected a JSON value but found \(describe(at: start))")
    }

    /// Reads a number. Lenient mode cuts a number missing its last digits back to its valid
    /// part (`1.` -> `1`) and reads `-Infinity` as `null`.
    mutating func readNumber() throws(JSONParseFailure) -> JSONValue? {
        let start = position
        var cursor = position
        if bytes[cursor] == ASCII.minus { cursor += 1 }
        let integerStart = cursor
        while cursor < end, ASCII.isDigit(bytes[cursor]) { cursor += 1 }
        if cursor == integerStart {
            if isLenient, cursor < end, ASCII.isLetter(bytes[cursor]) {
                var wordEnd = cursor
                while wordEnd < end, ASCII.isLetter(bytes[wordEnd]) { wordEnd += 1 }
                if text(cursor..<wordEnd) == "Infinity" {
                    position = wordEnd
                    repairs.append(
                        .make(.replacedNonFiniteNumber, at: start, "replaced '-Infinity' with null"))
                    return .null
                }
            }
            if isLenient, cursor == end {
                position = end
                return nil
            }
            throw .syntax(
                offset: cursor, message: "expected a digit after '-' but found \(describe(at: cursor))")
        }
        if cursor - integerStart > 1, bytes[integerStart] == ASCII.zero {
            throw .syntax(offset: integerStart, message: "a number cannot start with a leading zero")
        }
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
        if validEnd != cursor {
            guard isLenient else {
                throw .syntax(
                    offset: cursor,
                    message: "expected a digit in the number but found \(describe(at: cursor))")
            }
            let kept = text(start..<validEnd)
            repairs.append(
                .make(
                    .completedNumber, at: start,
                    "cut the incomplete number '\(text(start..<cursor))' back to '\(kept)'"))
            return .number(JSONNumber(checkedText: kept))
        }
        return .number(JSONNumber(checkedText: text(start..<cursor)))
    }

    /// Reads `true`, `false` or `null`; lenient mode also Python's `True`, `False`, `None`,
    /// `NaN` and `Infinity` (as `null`), and completes a literal cut by the end (`tru`).
    mutating func readWord() throws(JSONParseFailure) -> JSONValue {
        let start = position
        while position < end, ASCII.isLetter(bytes[position]) { position += 1 }
        let word = text(start..<position)
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if isLenient {
            let python: [String: (JSONValue, String)] = [
                "True": (.bool(true), "true"), "False": (.bool(false), "false"), "None": (.null, "null"),
            ]
            if let (value, literal) = python[word] {
                repairs.append(
                    .make(
                        .convertedPythonLiteral, at: start,
                        "replaced the Python literal '\(word)' with '\(literal)'"))
                return value
            }
            if word == "NaN" || word == "Infinity" {
                repairs.append(.make(.replacedNonFiniteNumber, at: start, "replaced '\(word)' with null"))
                return .null
            }
            if position == end {
                let candidates: [(String, JSONValue)] = [
                    ("true", .bool(true)), ("false", .bool(false)), ("null", .null),
                    ("True", .bool(true)), ("False", .bool(false)), ("None", .null),
                ]
                for (literal, value) in candidates where literal.hasPrefix(word) {
                    let json = value.compactText
                    repairs.append(
                        .make(
                            .completedLiteral, at: start, "completed the cut literal '\(word)' as '\(json)'"))
                    return value
                }
            }
        }
        let shown = word.count > 20 ? String(word.prefix(20)) + "..." : word
        throw .syntax(offset: start, message: "expected a JSON value but found '\(shown)'")
    }
}
