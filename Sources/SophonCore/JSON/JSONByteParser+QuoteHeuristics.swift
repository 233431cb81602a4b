/// How the lenient string reader tells a quote that ends a string from one that belongs to
/// its text (`"he said "hi" twice"`), and a string that lost its closing quote.
extension JSONByteParser {
    /// Whether a quote ending just before `offset` ends the string: what follows it (spaces
    /// skipped) can follow a string in JSON, or a missing comma. `keptQuote`: an earlier quote
    /// of this string was already kept as text (then a word after this one is more text, not
    /// the next element: `"he said "hi" to me, "x"` stays one string). `isKey`: the string is
    /// an object key, which a lone `=` may follow (`{"a" = 1}`, read as `:`).
    func endsString(after offset: Int, keptQuote: Bool = false, isKey: Bool = false) -> Bool {
        var cursor = offset
        while cursor < end,
            bytes[cursor] == ASCII.space || bytes[cursor] == ASCII.tab
                || bytes[cursor] == ASCII.carriageReturn
        {
            cursor += 1
        }
        guard cursor < end else { return true }
        switch bytes[cursor] {
        case ASCII.colon, ASCII.closeBrace, ASCII.closeBracket, ASCII.slash, ASCII.hash, ASCII.openBrace,
            ASCII.openBracket:
            return true  // `{` or `[`: a missing `:` or `,` before a container.
        case ASCII.closeParen where topIsTuple:
            return true  // `("x", "y")`: the end of a Python tuple.
        case ASCII.quote:
            // `"a" "b"`: a missing comma; `"bye""`: a quoted word ending the text.
            return cursor > offset
        case ASCII.newline:
            // Valid JSON may break the line before a `:`, `,` or closer: `{"a"\n:"b"}`.
            var next = cursor
            while next < end,
                bytes[next] == ASCII.space || bytes[next] == ASCII.tab || bytes[next] == ASCII.carriageReturn
                    || bytes[next] == ASCII.newline
            {
                next += 1
            }
            if next < end,
                [ASCII.colon, ASCII.comma, ASCII.closeBrace, ASCII.closeBracket].contains(bytes[next])
            {
                return true
            }
            return startsNextItem(at: cursor + 1)
        case ASCII.comma: return startsNextItem(at: cursor + 1)
        case ASCII.equals where isKey:
            return cursor + 1 >= end || !"=>".utf8.contains(bytes[cursor + 1])
        case 0xE2: return ASCII.curlyQuote(bytes, cursor, end) != nil
        default:
            // In an array, `"b" c, "d"`: a word standing alone before the next `,` is the next
            // element after a missing comma; reading the quote as text would merge "b", c and "d".
            return isLoneScalar(at: cursor) || (!inObject && !keptQuote && bareElementEnd(at: cursor) != nil)
        }
    }

    /// The offset of the `,` before the `"` at `offset`, with only spaces and tabs between them;
    /// `nil` when `offset` holds no `"` or no such comma comes before it.
    private func comma(before offset: Int) -> Int? {
        guard bytes[offset] == ASCII.quote else { return nil }
        var comma = offset - 1
        while comma >= 0, bytes[comma] == ASCII.space || bytes[comma] == ASCII.tab { comma -= 1 }
        return comma >= 0 && bytes[comma] == ASCII.comma ? comma : nil
    }

    /// The offset of the `,` before the `"` at `offset` when they look like the start of the
    /// next member (`, "key":`), else `nil`.
    func commaBeforeKey(quoteAt offset: Int) -> Int? {
        guard let comma = comma(before: offset) else { return nil }
        var cursor = offset + 1
        while cursor < end, bytes[cursor] != ASCII.quote {
            let byte = bytes[cursor]
            if byte < 0x20 || byte == ASCII.comma || byte == ASCII.colon || byte == ASCII.backslash {
                return nil
            }
            cursor += 1
        }
        guard cursor > offset + 1 else { return nil }
        cursor += 1
        while cursor < end, bytes[cursor] == ASCII.space || bytes[cursor] == ASCII.tab { cursor += 1 }
        return cursor < end && bytes[cursor] == ASCII.colon ? comma : nil
    }

    /// In an array, the offset of the `,` before the `"` at `offset` when they look like the
    /// start of the next element (`, "x",` or `, "x"]`: a quoted run with no line break, then
    /// `,` or `]`), else `nil`: the string being read lost its closing quote before that comma.
    func commaBeforeElement(quoteAt offset: Int) -> Int? {
        guard !inObject, let comma = comma(before: offset) else { return nil }
        var cursor = offset + 1
        while cursor < end, bytes[cursor] != ASCII.quote {
            let byte = bytes[cursor]
            if byte < 0x20 || byte == ASCII.backslash { return nil }
            cursor += 1
        }
        guard cursor < end else { return nil }
        cursor += 1
        while cursor < end, bytes[cursor] == ASCII.space || bytes[cursor] == ASCII.tab { cursor += 1 }
        let next = cursor < end ? bytes[cursor] : 0
        return next == ASCII.comma || next == ASCII.closeBracket || (next == ASCII.closeParen && topIsTuple)
            ? comma : nil
    }

    /// Whether a number or literal alone (followed by `,`, a closer, a newline or the end) is
    /// at `offset`: the value after a key whose `:` is missing (`{"a" 1, "b" 2}`).
    func isLoneScalar(at offset: Int) -> Bool {
        var cursor = offset
        let byte = bytes[cursor]
        if byte == ASCII.minus || ASCII.isDigit(byte) {
            cursor += 1
            while cursor < end, ASCII.isDigit(bytes[cursor]) || bytes[cursor] == ASCII.dot { cursor += 1 }
            if cursor < end, bytes[cursor] | 0x20 == 0x65 {  // e or E
                cursor += 1
                if cursor < end, bytes[cursor] == ASCII.plus || bytes[cursor] == ASCII.minus { cursor += 1 }
                while cursor < end, ASCII.isDigit(bytes[cursor]) { cursor += 1 }
            }
        } else if ASCII.isLetter(byte) {
            while cursor < end, ASCII.isLetter(bytes[cursor]) { cursor += 1 }
            let word = text(offset..<cursor)
            guard ["true", "false", "null", "True", "False", "None"].contains(word) else { return false }
        } else {
            return false
        }
        while cursor < end, bytes[cursor] == ASCII.space || bytes[cursor] == ASCII.tab { cursor += 1 }
        guard cursor < end else { return true }
        let next = bytes[cursor]
        return next == ASCII.comma || next == ASCII.closeBrace || next == ASCII.closeBracket
            || next == ASCII.newline || next == ASCII.carriageReturn
            || (next == ASCII.closeParen && topIsTuple)
    }

    /// Whether the text at `offset` (whitespace skipped) can start the next member (in an
    /// object: a key) or element (in an array: a value), close a container, or is the end.
    func startsNextItem(at offset: Int) -> Bool {
        var cursor = offset
        while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        guard cursor < end else { return true }
        let byte = bytes[cursor]
        switch byte {
        case ASCII.quote, ASCII.apostrophe, ASCII.closeBrace, ASCII.closeBracket, ASCII.comma, ASCII.slash,
            ASCII.hash, ASCII.dot:
            return true
        case ASCII.openBrace, ASCII.openBracket: return !inObject
        case ASCII.closeParen: return topIsTuple
        case ASCII.minus where !inObject, ASCII.zero...ASCII.nine where !inObject:
            return isLoneScalar(at: cursor)
        case 0xE2 where ASCII.curlyQuote(bytes, cursor, end) != nil || ASCII.isEllipsis(bytes, cursor, end):
            return true
        default:
            // A word: a literal (in an array) or an unquoted key followed by `:` (in an object).
            guard ASCII.isKeyStart(byte) || byte == ASCII.minus else { return false }
            var wordEnd = cursor
            while wordEnd < end, ASCII.isKeyCharacter(bytes[wordEnd]) { wordEnd += 1 }
            let word = text(cursor..<wordEnd)
            if !inObject, ["true", "false", "null", "True", "False", "None", "NaN"].contains(word) {
                return word == "NaN" || isLoneScalar(at: cursor)
            }
            // In an array, an unquoted word standing alone between commas is the next element
            // (`["a", b, "c"]`): reading the quote before it as text would merge three values.
            if !inObject, bareElementEnd(at: cursor) != nil { return true }
            while wordEnd < end, bytes[wordEnd] == ASCII.space || bytes[wordEnd] == ASCII.tab { wordEnd += 1 }
            return wordEnd < end && bytes[wordEnd] == ASCII.colon
        }
    }

    /// The end of an unquoted array element that starts at `offset` (`b` in `["a", b, "c"]`,
    /// also `two words`): a letter, then anything but quotes, brackets, braces, `:`, `\`, `/` and `#`, up
    /// to a `,`, `]` or line end (trailing blanks excluded); `nil` when the text there is not
    /// such a word, or runs to the end of the region (a cut literal such as `F` is completed
    /// instead).
    func bareElementEnd(at offset: Int) -> Int? {
        guard offset < end, ASCII.isLetter(bytes[offset]) else { return nil }
        var cursor = offset
        while cursor < end {
            switch bytes[cursor] {
            case ASCII.comma, ASCII.closeBracket, ASCII.newline, ASCII.carriageReturn:
                var last = cursor
                while last > offset, ASCII.isWhitespace(bytes[last - 1]) { last -= 1 }
                return last
            case ASCII.quote, ASCII.apostrophe, ASCII.openBrace, ASCII.closeBrace, ASCII.openBracket,
                ASCII.colon, ASCII.backslash, ASCII.slash, ASCII.hash:
                return nil
            case 0xE2 where ASCII.curlyQuote(bytes, cursor, end) != nil:
                return nil
            default:
                cursor += 1
            }
        }
        return nil
    }
}

/// The containers a ``JSONByteParser`` has open, in about one byte per level: the innermost
/// one (``top``) is kept whole; each one below it as the distance from its parent's opening
/// bracket to its own, with its parent's kind, in a variable-length code (LEB128, read back
/// from the end). So nesting 100,000 brackets deep costs about 100 KB, not a record per level.
struct JSONFrameStack {
    /// Open containers.
    private(set) var count = 0
    /// Whether the innermost open container is an object (meaningless when ``count`` is 0).
    private(set) var topIsObject = false
    /// Offset of the innermost open container's opening bracket.
    private(set) var topStart = 0
    /// Whether the innermost open container holds no member or element yet.
    var topIsEmpty = true
    /// How many of the open containers are objects.
    private(set) var openObjects = 0
    /// For each container below the top, from the bottom: `(offset from its parent's opener
    /// to its own) << 1 | (its parent is an object)`, as LEB128.
    private var links: [UInt8] = []

    var isEmpty: Bool { count == 0 }

    /// The closer of the innermost open container.
    var topCloser: UInt8 { topIsObject ? ASCII.closeBrace : ASCII.closeBracket }

    /// Opens a container whose bracket is at `start` (after the current top's).
    mutating func push(isObject: Bool, start: Int) {
        if count > 0 {
            var link = UInt((start - topStart) << 1) | (topIsObject ? 1 : 0)
            while link >= 0x80 {
                links.append(UInt8(truncatingIfNeeded: link) | 0x80)
                link >>= 7
            }
            links.append(UInt8(link))
        }
        count += 1
        if isObject { openObjects += 1 }
        topIsObject = isObject
        topStart = start
        topIsEmpty = true
    }

    /// Closes the innermost container; its parent (which now holds it) becomes the top.
    mutating func pop() {
        guard count > 0 else { return }
        count -= 1
        if topIsObject { openObjects -= 1 }
        topIsEmpty = false
        guard count > 0, var link = links.popLast().map(UInt.init) else { return }
        while let byte = links.last, byte & 0x80 != 0 {
            links.removeLast()
            link = link << 7 | UInt(byte & 0x7F)
        }
        topIsObject = link & 1 == 1
        topStart -= Int(link >> 1)
    }

    /// Whether a container closed by `closer` is open below the top.
    func isOpenBelowTop(closer: UInt8) -> Bool {
        let objectsBelow = openObjects - (topIsObject ? 1 : 0)
        return closer == ASCII.closeBrace ? objectsBelow > 0 : count - 1 - objectsBelow > 0
    }
}
