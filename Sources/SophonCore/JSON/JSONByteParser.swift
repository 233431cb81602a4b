/// Why a ``JSONByteParser`` run stopped without a value.
enum JSONParseFailure: Error, Equatable {
    /// The text is not JSON (or not repairable JSON in lenient mode) at `offset`.
    case syntax(offset: Int, message: String)
    /// A bracket at `offset` nests deeper than `limit` levels.
    case tooDeep(offset: Int, limit: Int)
}

/// A JSON tokenizer and parser over UTF-8 bytes, iterative (an explicit stack of open
/// containers, so deep nesting cannot overflow the call stack) and linear in the input.
///
/// In `.strict` mode it accepts exactly RFC 8259. In `.lenient` mode it also repairs what LLMs
/// produce and records each change in ``repairs``: truncation at the end of the region (strings,
/// numbers, literals, keys, commas and brackets), trailing commas, comments, Python literals,
/// single-quoted strings, invalid escapes and raw control characters. New repairs fit in the
/// state machine of ``parseValue()`` (structure) or in the scalar readers (tokens).
///
/// The buffer must outlive the parser; the parser is used inside `withUTF8` and never escapes.
struct JSONByteParser {
    /// Whether to accept only RFC 8259 or to repair.
    enum Mode { case strict, lenient }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The end of the region being parsed (exclusive); the end of a fenced block or the text.
    let end: Int
    let mode: Mode
    let maxDepth: Int
    /// The next byte to read.
    var position: Int
    /// Repairs made so far, in text order.
    var repairs: [JSONRepair] = []

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, mode: Mode, maxDepth: Int) {
        self.bytes = bytes
        self.position = start
        self.end = min(end, bytes.count)
        self.mode = mode
        self.maxDepth = maxDepth
    }

    var isLenient: Bool { mode == .lenient }

    /// An object or array still open.
    private struct Frame {
        let isObject: Bool
        /// Offset of the opening bracket.
        let start: Int
        var elements: [JSONValue] = []
        var members: [JSONMember] = []
        /// The key of the member being read.
        var key = ""
        /// Offset of the opening quote of ``key``.
        var keyStart = 0
        /// Offset of the last comma read.
        var commaOffset = 0

        var value: JSONValue { isObject ? .object(members) : .array(elements) }
    }

    /// What the parser expects next.
    private enum Expectation {
        /// A value: at the top level or after `:`.
        case value
        /// Right after `[`: a value or `]`.
        case firstElement
        /// After `,` in an array: a value (or, repaired, `]`).
        case elementAfterComma
        /// Right after `{`: a key or `}`.
        case firstKey
        /// After `,` in an object: a key (or, repaired, `}`).
        case keyAfterComma
        /// After a key: `:`.
        case colon
        /// After a value inside a container: `,` or the closing bracket.
        case separator
    }

    /// Whether the `{` or `[` at `offset` can start a (lenient) value: the first byte after it
    /// and any whitespace could begin its first member or element, or close it. A cheap filter
    /// that lets the extractor pass over brackets in prose without running the parser; keep it
    /// in step with what ``parseValue()`` accepts.
    static func canOpenContainer(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        var cursor = offset + 1
        while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        guard cursor < end else { return false }  // Only a bare bracket: nothing to recover.
        let byte = bytes[cursor]
        switch byte {
        case ASCII.quote, ASCII.apostrophe, ASCII.slash: return true
        case ASCII.closeBrace: return bytes[offset] == ASCII.openBrace
        case _ where bytes[offset] == ASCII.openBrace: return false
        case ASCII.closeBracket, ASCII.openBracket, ASCII.openBrace, ASCII.minus: return true
        case ASCII.zero...ASCII.nine: return true
        default: return "tfnTFNI".utf8.contains(byte)
        }
    }

    /// Parses one value starting at ``position`` (leading whitespace allowed) and leaves
    /// ``position`` just after it. Trailing text is not examined.
    ///
    /// - Throws: ``JSONParseFailure/syntax(offset:message:)`` when the text is not (repairable)
    ///   JSON; ``JSONParseFailure/tooDeep(offset:limit:)`` past ``maxDepth`` open brackets.
    mutating func parseValue() throws(JSONParseFailure) -> JSONValue {
        var frames: [Frame] = []
        var expect = Expectation.value
        while true {
            try skipInsignificant()
            guard position < end else {
                return try finishAtEnd(frames: &frames, expect: expect)
            }
            let byte = bytes[position]
            var produced: JSONValue?
            switch expect {
            case .value, .firstElement, .elementAfterComma:
                if byte == ASCII.closeBracket, expect != .value {
                    if expect == .elementAfterComma, let top = frames.last {
                        try trailingComma(at: top.commaOffset)
                    }
                    position += 1
                    produced = frames.removeLast().value
                } else if byte == ASCII.openBrace || byte == ASCII.openBracket {
                    guard frames.count < maxDepth else {
                        throw .tooDeep(offset: position, limit: maxDepth)
                    }
                    let isObject = byte == ASCII.openBrace
                    frames.append(Frame(isObject: isObject, start: position))
                    position += 1
                    expect = isObject ? .firstKey : .firstElement
                    continue
                } else {
                    let scalarStart = position
                    produced = try readScalar()
                    if produced == nil, let top = frames.last, !top.isObject {
                        // A scalar cut before it became a value (a lone `-`): the loop now
                        // finishes at the end of the region with `expect` unchanged.
                        repairs.append(
                            .make(.droppedIncompleteValue, at: scalarStart, "dropped the cut value"))
                    }
                }
            case .firstKey, .keyAfterComma:
                if byte == ASCII.closeBrace {
                    if expect == .keyAfterComma, let top = frames.last {
                        try trailingComma(at: top.commaOffset)
                    }
                    position += 1
                    produced = frames.removeLast().value
                } else if byte == ASCII.quote || (isLenient && byte == ASCII.apostrophe) {
                    let keyStart = position
                    // A key cut by the end leaves `.colon`, whose end-of-text repair drops it.
                    frames[frames.count - 1].key = try readString().text
                    frames[frames.count - 1].keyStart = keyStart
                    expect = .colon
                } else {
                    throw .syntax(
                        offset: position, message: "expected a string key but found \(describe(at: position))"
                    )
                }
            case .colon:
                guard byte == ASCII.colon else {
                    throw .syntax(
                        offset: position,
                        message: "expected ':' after the key but found \(describe(at: position))")
                }
                position += 1
                expect = .value
            case .separator:
                let isObject = frames.last?.isObject ?? false
                if byte == ASCII.comma {
                    frames[frames.count - 1].commaOffset = position
                    position += 1
                    expect = isObject ? .keyAfterComma : .elementAfterComma
                } else if byte == (isObject ? ASCII.closeBrace : ASCII.closeBracket) {
                    position += 1
                    produced = frames.removeLast().value
                } else {
                    let closer = isObject ? "}" : "]"
                    throw .syntax(
                        offset: position,
                        message: "expected ',' or '\(closer)' but found \(describe(at: position))")
                }
            }
            guard let value = produced else { continue }
            guard !frames.isEmpty else { return value }
            append(value, to: &frames)
            expect = .separator
        }
    }

    /// Adds a finished value to the innermost open container.
    private func append(_ value: JSONValue, to frames: inout [Frame]) {
        let last = frames.count - 1
        if frames[last].isObject {
            frames[last].members.append(JSONMember(frames[last].key, value))
        } else {
            frames[last].elements.append(value)
        }
    }

    /// Records the removal of the comma at `offset` before a closing bracket, or refuses it in
    /// strict mode.
    private mutating func trailingComma(at offset: Int) throws(JSONParseFailure) {
        guard isLenient else {
            throw .syntax(offset: position, message: "unexpected \(describe(at: position)) after ','")
        }
        repairs.append(.make(.removedTrailingComma, at: offset, "removed the trailing comma"))
    }

    /// The end of the region was reached with `frames` open: in strict mode an error, in
    /// lenient mode drop what is incomplete and close every open container, innermost first.
    private mutating func finishAtEnd(
        frames: inout [Frame], expect: Expectation
    ) throws(JSONParseFailure) -> JSONValue {
        guard isLenient, let top = frames.last else {
            let what = frames.isEmpty ? "a JSON value" : "the rest of the value"
            throw .syntax(offset: end, message: "unexpected end of input; expected \(what)")
        }
        switch expect {
        case .value, .colon:
            // An object member whose key or value is missing: drop it, never invent a value.
            repairs.append(.make(.droppedIncompleteMember, at: top.keyStart, "dropped the incomplete member"))
        case .elementAfterComma, .keyAfterComma:
            repairs.append(.make(.removedTrailingComma, at: top.commaOffset, "removed the trailing comma"))
        case .firstElement, .firstKey, .separator:
            break
        }
        while let frame = frames.popLast() {
            let opener = frame.isObject ? "{" : "["
            repairs.append(.make(.closedBracket, at: frame.start, "closed the '\(opener)' left open"))
            guard !frames.isEmpty else { return frame.value }
            append(frame.value, to: &frames)
        }
        return .null  // Unreachable: the loop returns when the outermost frame closes.
    }
}
