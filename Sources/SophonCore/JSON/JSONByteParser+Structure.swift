/// The structural states of ``JSONByteParser/parseValue()``: one reader per expectation, with
/// the repairs that fit there (missing commas and colons, mismatched and stray closers, `...`
/// placeholders, members without values).
extension JSONByteParser {
    /// A value is expected (top level, after `:`, or in an array).
    mutating func readElement(_ byte: UInt8, expect: inout Expectation) throws(JSONParseFailure) -> Produced?
    {
        if isLenient, expect != .value, skipEllipsis(expect: &expect) { return nil }
        if isLenient, expect == .elementAfterComma, byte == ASCII.comma, commaOffset == position - 1 {
            // `[1,, 2]`: a doubled comma, a typo. Only two commas side by side: `[1, , 2]`
            // (a value left out) stays refused.
            repair(.removedExtraComma, at: position, "removed the extra ','")
            position += 1
            return nil
        }
        if isLenient, expect == .elementAfterComma, byte == ASCII.closeBrace,
            frames.isOpenBelowTop(closer: byte)
        {
            // `{"a": [1, 2,}`: a trailing comma, then the object's closer for the array's.
            return try closeAfterTrailingComma()
        }
        if byte == ASCII.closeBracket || (byte == ASCII.closeParen && topIsTuple), expect != .value {
            if expect == .elementAfterComma, !frames.isEmpty {
                try trailingComma(at: commaOffset)
            }
            position += 1
            return closeContainer()
        }
        if byte == ASCII.openBrace || byte == ASCII.openBracket {
            let isObject = byte == ASCII.openBrace
            try openContainer(isObject: isObject)
            position += 1
            expect = isObject ? .firstKey : .firstElement
            return nil
        }
        if isLenient, byte == ASCII.openParen, !frames.isEmpty {
            // `{'point': (1, 2)}`: a Python tuple, read as an array. Only inside a container:
            // parentheses in prose are not values.
            repair(.convertedTuple, at: position, "read the Python tuple as an array")
            try openContainer(isObject: false)
            position += 1
            expect = .firstElement
            return nil
        }
        let afterColon = expect == .value && !frames.isEmpty
        if isLenient, afterColon, ASCII.isEllipsis(bytes, position, end) {
            // `{"a": ..., "b": 1}`: the value stands elided; the member is dropped below.
            repair(.removedEllipsis, at: position, "removed the '...' placeholder")
            position += 3
            while position < end, bytes[position] == ASCII.dot { position += 1 }
            return nil
        }
        if isLenient, afterColon, byte == ASCII.comma || byte == ASCII.closeBrace {
            // `{"a": , "b": 1}` or `{"a": }`: the member has no value; drop it.
            builder.dropKey()
            repair(.droppedEmptyMember, at: keyStart, "dropped the member with no value")
            if byte == ASCII.comma {
                commaOffset = position
                position += 1
                expect = .keyAfterComma
                return nil
            }
            position += 1
            return closeContainer()
        }
        if isLenient, !afterColon, readsBareElement(expect: expect) {
            return .scalar(readBareWord())
        }
        let scalarStart = position
        guard let scalar = try readScalar(allowBareWord: afterColon) else {
            if !frames.isEmpty, !frames.topIsObject {
                // A scalar cut before it became a value (a lone `-`): the loop now finishes at
                // the end of the region with `expect` unchanged.
                repair(.droppedIncompleteValue, at: scalarStart, "dropped the cut value")
            }
            return nil
        }
        return .scalar(scalar)
    }

    /// A key (or the end of the object) is expected.
    mutating func readKey(_ byte: UInt8, expect: inout Expectation) throws(JSONParseFailure) -> Produced? {
        if byte == ASCII.closeBrace {
            if expect == .keyAfterComma, !frames.isEmpty {
                try trailingComma(at: commaOffset)
            }
            position += 1
            return closeContainer()
        }
        if isLenient, expect == .keyAfterComma, byte == ASCII.closeBracket,
            frames.isOpenBelowTop(closer: byte)
        {
            // `[{"a": 1,]`: a trailing comma, then the array's closer for the object's.
            return try closeAfterTrailingComma()
        }
        if isLenient, skipEllipsis(expect: &expect) { return nil }
        if isLenient, byte == ASCII.comma {
            // `{"a": 1,, "b": 2}` or `{, "a": 1}`: an object has no holes, so the extra comma
            // means nothing.
            repair(.removedExtraComma, at: position, "removed the extra ','")
            position += 1
            return nil
        }
        let start = position
        let key: JSONPiece
        if byte == ASCII.quote || (isLenient && (byte == ASCII.apostrophe || isCurlyOpener(at: position))) {
            // A key cut by the end leaves `.colon`, whose end-of-text repair drops it.
            key = try readString(isKey: true).text
        } else if isLenient, ASCII.isKeyStart(byte) || byte == ASCII.minus {
            key = readUnquotedKey()
        } else {
            throw .syntax(
                offset: position, message: "expected a string key but found \(describe(at: position))")
        }
        builder.key(key, in: bytes)
        keyStart = start
        expect = .colon
        return nil
    }

    /// Removes the comma before a closer of the wrong kind (at ``position``, matching a
    /// container open below the innermost) and closes the innermost container there; the
    /// closer itself is read next, by the container it closes.
    private mutating func closeAfterTrailingComma() throws(JSONParseFailure) -> Produced {
        try trailingComma(at: commaOffset)
        let opener = frames.topIsObject ? "{" : "["
        repair(
            .closedMismatchedBracket, at: frames.topStart,
            "closed the '\(opener)' left open before the \(describe(at: position)) (offset \(position))")
        return closeContainer()
    }

    /// The `:` after a key is expected.
    mutating func readColon(_ byte: UInt8, expect: inout Expectation) throws(JSONParseFailure) {
        if byte == ASCII.colon {
            position += 1
            expect = .value
            return
        }
        if isLenient, byte == ASCII.equals, position + 1 >= end || !"=>".utf8.contains(bytes[position + 1]) {
            // `{"a" = 1}`: `=` for `:` (not `==` or `=>`).
            repair(.replacedEqualsSign, at: position, "read the '=' as ':'")
            position += 1
            expect = .value
            return
        }
        guard isLenient, startsValue(byte, words: false) else {
            throw .syntax(
                offset: position, message: "expected ':' after the key but found \(describe(at: position))")
        }
        repair(.insertedColon, at: position, "inserted the missing ':'")
        expect = .value
    }

    /// A `,` or the closing bracket is expected after a value in a container.
    mutating func readSeparator(_ byte: UInt8, expect: inout Expectation) throws(JSONParseFailure)
        -> Produced?
    {
        let isObject = frames.topIsObject
        if byte == ASCII.comma {
            commaOffset = position
            position += 1
            expect = isObject ? .keyAfterComma : .elementAfterComma
            return nil
        }
        if byte == frames.topCloser || (byte == ASCII.closeParen && topIsTuple) {
            position += 1
            return closeContainer()
        }
        if isLenient, byte == ASCII.closeBrace || byte == ASCII.closeBracket {
            guard frames.isOpenBelowTop(closer: byte) else {
                repair(
                    .removedStrayBracket, at: position,
                    "removed the \(describe(at: position)) closing nothing")
                position += 1
                return nil
            }
            let opener = isObject ? "{" : "["
            repair(
                .closedMismatchedBracket, at: frames.topStart,
                "closed the '\(opener)' left open before the \(describe(at: position)) (offset \(position))")
            return closeContainer()
        }
        if isLenient,
            isObject ? startsKey(byte) : startsValue(byte, words: true) || bareElementEnd(at: position) != nil
        {
            repair(.insertedComma, at: position, "inserted the missing ','")
            commaOffset = position
            expect = isObject ? .keyAfterComma : .elementAfterComma
            return nil
        }
        if isLenient, ASCII.isEllipsis(bytes, position, end) {
            // `[1, 2 ...]`: the placeholder stands for more elements; a `,` or closer follows.
            repair(.removedEllipsis, at: position, "removed the '...' placeholder")
            position += 3
            return nil
        }
        throw .syntax(
            offset: position,
            message: "expected ',' or '\(isObject ? "}" : "]")' but found \(describe(at: position))")
    }

    /// Skips a `...` or `…` placeholder at ``position`` and a comma after it; then a closer
    /// right after it is not reported as following a trailing comma.
    /// - Returns: whether a placeholder was skipped.
    mutating func skipEllipsis(expect: inout Expectation) -> Bool {
        guard ASCII.isEllipsis(bytes, position, end) else { return false }
        let start = position
        position += 3
        while position < end, bytes[position] == ASCII.dot { position += 1 }
        repair(.removedEllipsis, at: start, "removed the '...' placeholder")
        var cursor = position
        while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        guard cursor < end, !frames.isEmpty else { return true }
        if bytes[cursor] == ASCII.comma {
            position = cursor + 1
        } else if bytes[cursor] == frames.topCloser {
            expect = frames.topIsEmpty ? (frames.topIsObject ? .firstKey : .firstElement) : .separator
        }
        return true
    }

    /// Whether an unquoted word at ``position`` is read as a string element of the array being
    /// read (`["a", b, "c"]` -> `["a", "b", "c"]`, so neighbouring values stay apart): after a
    /// comma, or first when a quoted element follows it (`[b, "c"]`); never a literal word
    /// (`true`, `None`, `nil`, ...), which keeps its own reading, and never alone (`[see
    /// below]` stays prose).
    func readsBareElement(expect: Expectation) -> Bool {
        guard !frames.isEmpty, !frames.topIsObject, let wordEnd = bareElementEnd(at: position) else {
            return false
        }
        let word = text(position..<wordEnd)
        guard
            ![
                "true", "false", "null", "True", "False", "None", "NaN", "Infinity", "undefined", "NULL",
                "Null", "nil",
            ].contains(word)
        else { return false }
        switch expect {
        case .elementAfterComma:
            return true
        case .firstElement:
            var cursor = wordEnd
            while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
            guard cursor < end, bytes[cursor] == ASCII.comma else { return false }
            cursor += 1
            while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
            return cursor < end
                && (bytes[cursor] == ASCII.quote || bytes[cursor] == ASCII.apostrophe
                    || isCurlyOpener(at: cursor))
        default:
            return false
        }
    }

    /// Whether the innermost open container is a Python tuple read as an array (opened by `(`,
    /// closed by `)`).
    var topIsTuple: Bool {
        isLenient && !frames.isEmpty && !frames.topIsObject && bytes[frames.topStart] == ASCII.openParen
    }

    /// Whether `byte` can start a value after a missing comma or colon. Words only when
    /// `words` is set, and then only the first letters of literals.
    func startsValue(_ byte: UInt8, words: Bool) -> Bool {
        switch byte {
        case ASCII.quote, ASCII.apostrophe, ASCII.openBrace, ASCII.openBracket, ASCII.minus, ASCII.plus:
            return true
        case ASCII.zero...ASCII.nine: return true
        case 0xE2: return isCurlyOpener(at: position)
        default: return "tfnTFN".utf8.contains(byte) && (words || literalAhead())
        }
    }

    /// Whether `byte` can start a key after a missing comma.
    func startsKey(_ byte: UInt8) -> Bool {
        byte == ASCII.quote || byte == ASCII.apostrophe || isCurlyOpener(at: position)
            || (ASCII.isKeyStart(byte) && byte < 0x80)
    }

    /// Whether a literal (`true`, `None`, ...) is at ``position``, followed by a non-letter.
    func literalAhead() -> Bool {
        var cursor = position
        while cursor < end, ASCII.isLetter(bytes[cursor]) { cursor += 1 }
        let word = text(position..<cursor)
        return ["true", "false", "null", "True", "False", "None"].contains(word)
    }

    /// Whether an opening typographic quote (`“` or `‘`) is at `offset`.
    func isCurlyOpener(at offset: Int) -> Bool {
        guard let kind = ASCII.curlyQuote(bytes, offset, end) else { return false }
        return kind == 0x9C || kind == 0x98
    }
}
