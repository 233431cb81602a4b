/// Why a ``JSONByteParser`` run stopped without a value.
enum JSONParseFailure: Error, Equatable {
    /// The text is not JSON (or not repairable JSON in lenient mode) at `offset`.
    case syntax(offset: Int, message: String)
    /// A bracket at `offset` nests deeper than `limit` levels.
    case tooDeep(offset: Int, limit: Int)
    /// A number longer than the parser's limit starts at `offset` (lenient mode).
    case runawayNumber(offset: Int, length: Int)
    /// A run of escapes longer than the parser's limit starts at `offset` (lenient mode).
    case runawayEscape(offset: Int, length: Int)
}

/// A JSON tokenizer and parser over UTF-8 bytes, iterative (an explicit stack of open
/// containers, so deep nesting cannot overflow the call stack) and linear in the input.
///
/// In `.strict` mode it accepts exactly RFC 8259. In `.lenient` mode it also repairs what LLMs
/// produce and records each change in ``repairs``: truncation at the end of the region (strings,
/// numbers, literals, keys, commas and brackets), trailing and missing commas, missing colons,
/// mismatched and stray closers, `...` placeholders, comments, Python literals, single and
/// curly quotes, unquoted keys and word values, quotes and control characters inside strings,
/// invalid escapes and numbers outside JSON syntax. Structure repairs live in
/// `JSONByteParser+Structure.swift`, token repairs in the string, scalar and word readers.
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
    /// Longest number accepted in lenient mode (bytes); longer is a runaway.
    var maxNumberLength = Int.max
    /// Longest run of consecutive escapes accepted in lenient mode (bytes).
    var maxEscapeRunLength = Int.max
    /// The next byte to read.
    var position: Int
    /// Repairs made so far, in text order.
    var repairs: [JSONRepair] = []
    /// How many tokens only JSON would write were read (quoted strings, numbers, literals):
    /// zero means the "value" was prose in brackets (`{Note: see below}`).
    var evidence = 0
    /// How many single-quoted strings were read to the end: a single-quoted string cut by the
    /// end of the text is accepted only after one (else `'` is an apostrophe in prose).
    var singleQuotedStrings = 0
    /// The ranges of the strings read (quotes included), recorded only when not `nil`: the
    /// extractor asks for them after a failure, to retry brackets read as text.
    var stringRanges: [Range<Int>]?
    /// Whether the innermost open container is an object (set before each token is read), so
    /// the string reader knows what may follow a string there: a key, not a value.
    var inObject = false

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, mode: Mode, maxDepth: Int) {
        self.bytes = bytes
        self.position = start
        self.end = min(end, bytes.count)
        self.mode = mode
        self.maxDepth = maxDepth
    }

    var isLenient: Bool { mode == .lenient }

    /// An object or array still open.
    struct Frame {
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
        var isEmpty: Bool { isObject ? members.isEmpty : elements.isEmpty }
        var closer: UInt8 { isObject ? ASCII.closeBrace : ASCII.closeBracket }
    }

    /// What the parser expects next.
    enum Expectation {
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
        let isObject = bytes[offset] == ASCII.openBrace
        switch byte {
        case ASCII.quote, ASCII.apostrophe, ASCII.slash, ASCII.hash: return true
        case ASCII.backslash: return escapedJSONStart(after: offset, in: bytes, end: end)
        case 0xE2: return ASCII.curlyQuote(bytes, cursor, end) != nil || ASCII.isEllipsis(bytes, cursor, end)
        case ASCII.closeBrace: return isObject
        case ASCII.dot: return ASCII.isEllipsis(bytes, cursor, end) || !isObject
        case _ where isObject: return ASCII.isKeyStart(byte) || byte == ASCII.minus
        case ASCII.closeBracket, ASCII.openBracket, ASCII.openBrace, ASCII.minus, ASCII.plus: return true
        case ASCII.zero...ASCII.nine: return true
        default: return "tfnTFNIu".utf8.contains(byte)
        }
    }

    /// Whether the bracket at `offset` opens escaped JSON (`{\"a\": 1}`, `{\n  \"a\"...`): after
    /// whitespace and escaped whitespace (`\n`, `\t`, `\r`) comes `\"`.
    static func escapedJSONStart(after offset: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        var cursor = offset + 1
        while cursor + 1 < end {
            if ASCII.isWhitespace(bytes[cursor]) {
                cursor += 1
                continue
            }
            guard bytes[cursor] == ASCII.backslash else { return false }
            switch bytes[cursor + 1] {
            case ASCII.quote: return true
            case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r"): cursor += 2
            default: return false
            }
        }
        return false
    }

    /// Parses one value starting at ``position`` (leading whitespace allowed) and leaves
    /// ``position`` just after it. Trailing text is not examined.
    ///
    /// - Throws: ``JSONParseFailure/syntax(offset:message:)`` when the text is not (repairable)
    ///   JSON; ``JSONParseFailure/tooDeep(offset:limit:)`` past ``maxDepth`` open brackets;
    ///   the runaway failures past ``maxNumberLength`` or ``maxEscapeRunLength``.
    mutating func parseValue() throws(JSONParseFailure) -> JSONValue {
        var frames: [Frame] = []
        var expect = Expectation.value
        while true {
            try skipInsignificant(hashComments: expect != .value || frames.isEmpty)
            guard position < end else {
                return try finishAtEnd(frames: &frames, expect: expect)
            }
            let byte = bytes[position]
            inObject = frames.last?.isObject ?? false
            let produced: JSONValue?
            switch expect {
            case .value, .firstElement, .elementAfterComma:
                produced = try readElement(byte, frames: &frames, expect: &expect)
            case .firstKey, .keyAfterComma:
                produced = try readKey(byte, frames: &frames, expect: &expect)
            case .colon:
                try readColon(byte, expect: &expect)
                produced = nil
            case .separator:
                produced = try readSeparator(byte, frames: &frames, expect: &expect)
            }
            guard let value = produced else { continue }
            guard !frames.isEmpty else { return value }
            append(value, to: &frames)
            expect = .separator
        }
    }

    /// Adds a finished value to the innermost open container.
    func append(_ value: JSONValue, to frames: inout [Frame]) {
        let last = frames.count - 1
        if frames[last].isObject {
            frames[last].members.append(JSONMember(frames[last].key, value))
        } else {
            frames[last].elements.append(value)
        }
    }

    /// Records the removal of the comma at `offset` before a closing bracket, or refuses it in
    /// strict mode.
    mutating func trailingComma(at offset: Int) throws(JSONParseFailure) {
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
