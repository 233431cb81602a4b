extension JSONByteParser {
    /// Reads a string whose opening quote (`"`; in lenient mode also `'`, `“` or `‘`) is at
    /// ``position``.
    ///
    /// In lenient mode a quote ends the string only when what follows it can follow a string
    /// (`,` then a next member or element, `:`, a closer, a comment, the end, another string);
    /// any other quote is kept as text (`"he said "hi" twice"`). A string cut by the end loses
    /// the whitespace the cut left at its end.
    ///
    /// - Returns: the text (a span of the input when nothing was unescaped), and
    ///   `complete == false` when the string was cut by the end
    ///   of the region (lenient mode only; ``position`` is then at the end and the caller
    ///   decides how to record it).
    /// - Throws: ``JSONParseFailure/syntax(offset:message:)`` for what cannot be repaired and,
    ///   in strict mode, for raw control characters, invalid escapes, unpaired surrogates and
    ///   a missing closing quote (in lenient mode for a single-quoted string cut by the end
    ///   before any single-quoted string was complete: an apostrophe in prose);
    ///   ``JSONParseFailure/runawayEscape(offset:length:)`` past ``maxEscapeRunLength``.
    /// - Parameter isKey: the string is an object key: one that reaches a quote it cannot end
    ///   at (or the end of the region) after a `:` lost its closing quote before that `:`
    ///   (`{"a: 1, "b": 2}`), and is closed there.
    mutating func readString(isKey: Bool = false) throws(JSONParseFailure) -> (
        text: JSONPiece, complete: Bool
    ) {
        let start = position
        let quote: UInt8  // The ASCII quote that ends the string.
        var curlyCloser: UInt8 = 0  // Third UTF-8 byte of the typographic closer, if any.
        if isLenient, let curly = ASCII.curlyQuote(bytes, position, end) {
            quote = curly == 0x9C ? ASCII.quote : ASCII.apostrophe
            curlyCloser = curly == 0x9C ? 0x9D : 0x99
            repair(.convertedCurlyQuotes, at: start, "read the string in typographic quotes")
            position += 3
        } else {
            quote = bytes[position]
            if quote == ASCII.apostrophe {
                repair(.convertedSingleQuotes, at: start, "read the single-quoted string")
            }
            position += 1
        }
        let contentStart = position
        // Fast path: no escapes, control characters or inner quotes: one copy into the String.
        while position < end {
            let byte = bytes[position]
            if byte == quote {
                guard !isLenient || endsString(after: position + 1, isKey: isKey) else { break }
                let value = JSONPiece.span(contentStart..<position)
                position += 1
                return finishString(value, quote: quote, from: start)
            }
            if byte == ASCII.backslash || byte < 0x20 || (byte == 0xE2 && curlyCloser != 0) { break }
            position += 1
        }
        var buffer: [UInt8] = []
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        // The first `:` in a key: its offset and the length of `buffer` before it.
        var keyColon: (offset: Int, count: Int)?
        if isKey, isLenient, let colon = (contentStart..<position).first(where: { bytes[$0] == ASCII.colon })
        {
            keyColon = (colon, colon - contentStart)
        }
        var reportedControl = false
        var reportedQuote = false
        var escapeRun = -1  // Offset where the current run of escapes started.
        while position < end {
            let byte = bytes[position]
            var closer = byte == quote ? 1 : 0
            if curlyCloser != 0, byte == 0xE2, ASCII.curlyQuote(bytes, position, end) == curlyCloser {
                closer = 3
            }
            if closer > 0 {
                if !isLenient || endsString(after: position + closer, keptQuote: reportedQuote, isKey: isKey)
                {
                    position += closer
                    return finishString(.bytes(buffer), quote: quote, from: start)
                }
                if let colon = keyColon {
                    return closeKey(before: colon, buffer: &buffer, from: start)
                }
                if let comma = commaBeforeKey(quoteAt: position) ?? commaBeforeElement(quoteAt: position),
                    comma >= contentStart
                {
                    // `{"a": "x, "b": 2}`: the string lost its closing quote before `, "b":`
                    // (in an array, before `, "b"]`: the values stay apart).
                    buffer.removeLast(position - comma)
                    while let last = buffer.last, ASCII.isWhitespace(last) { buffer.removeLast() }
                    repair(.insertedClosingQuote, at: comma, "closed the string missing its closing quote")
                    position = comma
                    return finishString(.bytes(buffer), quote: quote, from: start)
                }
                if !reportedQuote {
                    reportedQuote = true
                    repair(.escapedInnerQuote, at: position, "kept the quote inside the string as text")
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<position + closer]))
                position += closer
                escapeRun = -1
                continue
            }
            if byte == ASCII.backslash {
                if escapeRun < 0 { escapeRun = position }
                guard try readEscape(quote: quote, into: &buffer) else { break }
                if isLenient, position - escapeRun > maxEscapeRunLength {
                    var runEnd = position
                    while runEnd < end, bytes[runEnd] == ASCII.backslash { runEnd += 2 }
                    throw .runawayEscape(offset: escapeRun, length: min(runEnd, end) - escapeRun)
                }
                continue
            }
            escapeRun = -1
            if isKey, isLenient, byte == ASCII.colon, keyColon == nil { keyColon = (position, buffer.count) }
            if byte < 0x20 {
                let name = "U+" + hex4(UInt32(byte))
                guard isLenient else {
                    throw .syntax(
                        offset: position, message: "raw control character \(name) in a string must be escaped"
                    )
                }
                if !reportedControl {
                    reportedControl = true
                    repair(.escapedControlCharacter, at: position, "escaped the raw \(name) in the string")
                }
            }
            buffer.append(byte)
            position += 1
        }
        // A single quote left open is more likely an apostrophe in prose than a cut string,
        // unless single-quoted strings were already read: refuse it rather than swallow the
        // rest of the text.
        guard isLenient, quote == ASCII.quote || singleQuotedStrings > 0 else {
            throw .endOfInput(
                offset: start, message: "unterminated string (no closing quote before the end of input)")
        }
        if let colon = keyColon { return closeKey(before: colon, buffer: &buffer, from: start) }
        position = end
        while let last = buffer.last, ASCII.isWhitespace(last) { buffer.removeLast() }
        evidence += 1
        recordStringRange(start..<end)
        return (.bytes(buffer), false)
    }

    /// Ends a key that lost its closing quote at the `:` after it; ``position`` is left on the
    /// `:`.
    private mutating func closeKey(
        before colon: (offset: Int, count: Int), buffer: inout [UInt8], from start: Int
    ) -> (text: JSONPiece, complete: Bool) {
        buffer.removeLast(buffer.count - colon.count)
        while let last = buffer.last, ASCII.isWhitespace(last) { buffer.removeLast() }
        repair(.insertedClosingQuote, at: colon.offset, "closed the key missing its closing quote")
        position = colon.offset
        return finishString(.bytes(buffer), quote: ASCII.quote, from: start)
    }

    private mutating func finishString(_ value: JSONPiece, quote: UInt8, from start: Int) -> (
        text: JSONPiece, complete: Bool
    ) {
        evidence += 1
        recordStringRange(start..<position)
        if quote == ASCII.apostrophe { singleQuotedStrings += 1 }
        return (value, true)
    }

    /// Records the range of a string read (quotes included) when ``stringRanges`` is on and
    /// the string holds a `{` or `[`: the only strings the extractor's retry looks into.
    private mutating func recordStringRange(_ range: Range<Int>) {
        guard stringRanges != nil,
            bytes[range].contains(where: { $0 == ASCII.openBrace || $0 == ASCII.openBracket })
        else { return }
        stringRanges?.append(range)
    }

    /// Reads the escape sequence whose backslash is at ``position`` into `buffer`.
    /// - Returns: `false` when the escape was cut by the end of the region (lenient mode: it is
    ///   dropped and recorded, ``position`` is at the end).
    private mutating func readEscape(quote: UInt8, into buffer: inout [UInt8]) throws(JSONParseFailure)
        -> Bool
    {
        let start = position
        guard position + 1 < end else { return try cutEscape(at: start) }
        let code = bytes[position + 1]
        var simple: UInt8?
        switch code {
        case ASCII.quote, ASCII.backslash, ASCII.slash: simple = code
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = ASCII.newline
        case UInt8(ascii: "r"): simple = ASCII.carriageReturn
        case UInt8(ascii: "t"): simple = ASCII.tab
        case ASCII.apostrophe where quote == ASCII.apostrophe: simple = code
        case ASCII.apostrophe where isLenient:
            repair(.repairedEscape, at: start, "read the escape \\' as '")
            simple = code
        default: simple = nil
        }
        if let simple {
            buffer.append(simple)
            position += 2
            return true
        }
        guard code == UInt8(ascii: "u") else { return try invalidEscape(at: start, into: &buffer) }
        let unit: UInt32
        switch hexEscape(at: start) {
        case .cut: return try cutEscape(at: start)
        case .invalid: return try invalidEscape(at: start, into: &buffer)
        case .unit(let value): unit = value
        }
        position += 6
        var cutBeforeLowHalf = false
        if (0xD800...0xDBFF).contains(unit) {
            switch hexEscape(at: position) {
            case .unit(let low) where (0xDC00...0xDFFF).contains(low):
                position += 6
                appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &buffer)
                return true
            case .cut where isLenient:
                return try cutEscape(at: start)
            case .cut:
                cutBeforeLowHalf = true
            default:
                break
            }
        } else if !(0xDC00...0xDFFF).contains(unit) {
            appendUTF8(unit, to: &buffer)
            return true
        }
        let escape = text(start..<start + 6)
        guard isLenient else {
            let message = "unpaired surrogate escape '\(escape)' in a string"
            // The end may have cut the pair's low half: the start of a JSON text all the same.
            if cutBeforeLowHalf { throw .endOfInput(offset: start, message: message) }
            throw .syntax(offset: start, message: message)
        }
        repair(.repairedEscape, at: start, "replaced the unpaired surrogate escape '\(escape)' with U+FFFD")
        appendUTF8(0xFFFD, to: &buffer)
        return true
    }

    /// An escape cut by the end of the region: dropped in lenient mode, an error in strict mode.
    private mutating func cutEscape(at start: Int) throws(JSONParseFailure) -> Bool {
        guard isLenient else {
            throw .endOfInput(offset: start, message: "unexpected end of input in an escape sequence")
        }
        repair(.droppedIncompleteEscape, at: start, "dropped the cut escape sequence")
        position = end
        return false
    }

    /// An escape JSON does not define: kept as literal text in lenient mode (the backslash is
    /// taken as a character), an error in strict mode.
    private mutating func invalidEscape(at start: Int, into buffer: inout [UInt8]) throws(JSONParseFailure)
        -> Bool
    {
        let shown = describe(at: start + 1)
        guard isLenient else {
            throw .syntax(offset: start, message: "invalid escape: backslash followed by \(shown)")
        }
        repair(.repairedEscape, at: start, "kept the invalid escape (backslash, \(shown)) as text")
        buffer.append(ASCII.backslash)
        position += 1
        return true
    }

    /// What a `\uXXXX` escape at an offset holds.
    private enum HexEscape {
        case unit(UInt32)
        /// The region ends inside (or right at the start of) the escape.
        case cut
        case invalid
    }

    /// Reads `\uXXXX` at `offset`.
    private func hexEscape(at offset: Int) -> HexEscape {
        let pattern: [UInt8] = [ASCII.backslash, UInt8(ascii: "u")]
        var value: UInt32 = 0
        for index in 0..<6 {
            let cursor = offset + index
            guard cursor < end else { return .cut }
            let byte = bytes[cursor]
            if index < 2 {
                guard byte == pattern[index] else { return .invalid }
                continue
            }
            let digit: UInt32
            switch byte {
            case ASCII.zero...ASCII.nine: digit = UInt32(byte - ASCII.zero)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return .invalid
            }
            value = value << 4 | digit
        }
        return .unit(value)
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value (not a surrogate, at most 0x10FFFF).
    private func appendUTF8(_ value: UInt32, to buffer: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            buffer.append(UInt8(value))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | value >> 6))
            buffer.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | value >> 12))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | value >> 18))
            buffer.append(UInt8(0x80 | value >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
