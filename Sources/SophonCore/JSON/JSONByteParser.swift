/// Why a ``JSONByteParser`` run stopped without a value.
enum JSONParseFailure: Error, Equatable {
    /// The text is not JSON (or not repairable JSON in lenient mode) at `offset`.
    case syntax(offset: Int, message: String)
    /// The text ended before the value was complete (`[1, 2`, `{"a": "b`, `1.`, `tr`): what
    /// came before it is the start of a JSON text. `offset` is where the problem is reported:
    /// the end, or the start of the string, escape or literal the end cut.
    case endOfInput(offset: Int, message: String)
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
/// What it reads goes to its `Builder`: a ``JSONTreeBuilder`` builds a ``JSONValue``, a
/// ``JSONTextBuilder`` writes compact JSON text. The parser itself keeps only offsets and
/// flags (``JSONFrameStack``), so its memory is what the builder keeps.
///
/// The buffer must outlive the parser; the parser is used inside `withUTF8` and never escapes.
struct JSONByteParser<Builder: JSONValueBuilder> {
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
    /// Repairs made so far, in text order (see ``repair(_:at:_:)``); past
    /// ``maxListedRepairs`` the rest are counted in ``unlisted`` and summarized at the end.
    var repairs: [JSONRepair] = []
    /// Repairs past ``maxListedRepairs``, one entry per kind.
    var unlisted: [UnlistedRepairs] = []
    /// Receives the values read.
    var builder: Builder
    /// The open containers.
    var frames = JSONFrameStack()
    /// Offset of the opening quote of the key of the member being read (innermost object).
    var keyStart = 0
    /// Offset of the last comma read in the innermost container.
    var commaOffset = 0
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

    init(
        bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, mode: Mode, maxDepth: Int, builder: Builder
    ) {
        self.bytes = bytes
        self.position = start
        self.end = min(end, bytes.count)
        self.mode = mode
        self.maxDepth = maxDepth
        self.builder = builder
    }

    var isLenient: Bool { mode == .lenient }

    /// What a reader produced: a scalar, or a container it closed.
    enum Produced {
        case scalar(JSONScalar)
        case closed
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

    /// Parses one value starting at ``position`` (leading whitespace allowed) and leaves
    /// ``position`` just after it. Trailing text is not examined.
    ///
    /// - Returns: what the builder made of the value.
    /// - Throws: ``JSONParseFailure/syntax(offset:message:)`` when the text is not (repairable)
    ///   JSON; ``JSONParseFailure/tooDeep(offset:limit:)`` past ``maxDepth`` open brackets;
    ///   the runaway failures past ``maxNumberLength`` or ``maxEscapeRunLength``.
    mutating func parseValue() throws(JSONParseFailure) -> Builder.Output {
        var expect = Expectation.value
        while true {
            try skipInsignificant(hashComments: expect != .value || frames.isEmpty)
            guard position < end else {
                try finishAtEnd(expect: expect)
                break
            }
            let byte = bytes[position]
            inObject = !frames.isEmpty && frames.topIsObject
            let produced: Produced?
            switch expect {
            case .value, .firstElement, .elementAfterComma:
                produced = try readElement(byte, expect: &expect)
            case .firstKey, .keyAfterComma:
                produced = try readKey(byte, expect: &expect)
            case .colon:
                try readColon(byte, expect: &expect)
                produced = nil
            case .separator:
                produced = try readSeparator(byte, expect: &expect)
            }
            guard let produced else { continue }
            if case .scalar(let scalar) = produced { builder.scalar(scalar, in: bytes) }
            guard !frames.isEmpty else { break }
            frames.topIsEmpty = false
            expect = .separator
        }
        summarizeRepairs()
        return builder.finish()
    }

    /// Opens the container whose bracket is at ``position``.
    mutating func openContainer(isObject: Bool) throws(JSONParseFailure) {
        guard frames.count < maxDepth else { throw .tooDeep(offset: position, limit: maxDepth) }
        frames.push(isObject: isObject, start: position)
        builder.open(isObject: isObject)
    }

    /// Closes the innermost container.
    mutating func closeContainer() -> Produced {
        builder.close(isObject: frames.topIsObject)
        frames.pop()
        return .closed
    }

    /// Records the removal of the comma at `offset` before a closing bracket, or refuses it in
    /// strict mode.
    mutating func trailingComma(at offset: Int) throws(JSONParseFailure) {
        guard isLenient else {
            throw .syntax(offset: position, message: "unexpected \(describe(at: position)) after ','")
        }
        repair(.removedTrailingComma, at: offset, "removed the trailing comma")
    }

    /// The end of the region was reached with containers open: in strict mode an error, in
    /// lenient mode drop what is incomplete and close every open container, innermost first.
    private mutating func finishAtEnd(expect: Expectation) throws(JSONParseFailure) {
        guard isLenient, !frames.isEmpty else {
            let what = frames.isEmpty ? "a JSON value" : "the rest of the value"
            throw .endOfInput(offset: end, message: "unexpected end of input; expected \(what)")
        }
        switch expect {
        case .value, .colon:
            // An object member whose key or value is missing: drop it, never invent a value.
            builder.dropKey()
            repair(.droppedIncompleteMember, at: keyStart, "dropped the incomplete member")
        case .elementAfterComma, .keyAfterComma:
            repair(.removedTrailingComma, at: commaOffset, "removed the trailing comma")
        case .firstElement, .firstKey, .separator:
            break
        }
        while !frames.isEmpty {
            let opener = frames.topIsObject ? "{" : "["
            repair(.closedBracket, at: frames.topStart, "closed the '\(opener)' left open")
            _ = closeContainer()
        }
    }
}

/// Cheap tests the extractor makes on a bracket before it runs a parser there.
enum JSONCandidateStart {
    /// Whether the `{` or `[` at `offset` can start a (lenient) value: the first byte after it
    /// and any whitespace could begin its first member or element, or close it. A cheap filter
    /// that lets the extractor pass over brackets in prose without running the parser; keep it
    /// in step with what ``JSONByteParser/parseValue()`` accepts.
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
        case ASCII.closeBrace, ASCII.comma: return isObject
        case ASCII.dot: return ASCII.isEllipsis(bytes, cursor, end) || !isObject
        case _ where isObject: return ASCII.isKeyStart(byte) || byte == ASCII.minus
        case ASCII.closeBracket, ASCII.openBracket, ASCII.openBrace, ASCII.openParen, ASCII.minus, ASCII.plus:
            return true
        case ASCII.zero...ASCII.nine: return true
        default: return "tfnTFNIu".utf8.contains(byte) || bareWordThenString(at: cursor, in: bytes, end: end)
        }
    }

    /// Whether an unquoted word, a `,` and a quoted string start at `offset` (`[b, "c"]`): an
    /// array of strings whose first element lost its quotes (see
    /// ``JSONByteParser/readsBareElement(expect:)``).
    static func bareWordThenString(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        guard ASCII.isLetter(bytes[offset]) else { return false }
        var cursor = offset
        while cursor < end, bytes[cursor] != ASCII.comma {
            switch bytes[cursor] {
            case ASCII.quote, ASCII.apostrophe, ASCII.openBrace, ASCII.closeBrace, ASCII.openBracket,
                ASCII.closeBracket, ASCII.colon, ASCII.backslash, ASCII.newline, ASCII.carriageReturn:
                return false
            default: cursor += 1
            }
        }
        cursor += 1
        while cursor < end, ASCII.isWhitespace(bytes[cursor]) { cursor += 1 }
        return cursor < end && (bytes[cursor] == ASCII.quote || bytes[cursor] == ASCII.apostrophe)
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

}

/// Recording repairs: every repair is listed up to ``JSONByteParser/maxListedRepairs``; past
/// that, each kind is counted and listed once (its first occurrence, with the count), so a
/// pathological input (`[1 1 1 ...]`, a missing comma every two bytes) cannot make the list
/// many times larger than the text.
extension JSONByteParser {
    /// Repairs listed one by one per parse; later ones are summarized by kind.
    static var maxListedRepairs: Int { 1_000 }

    /// Records a repair of `kind` at `offset`; `what` is the sentence before ` at offset N`.
    mutating func repair(_ kind: JSONRepair.Kind, at offset: Int, _ what: String) {
        if repairs.count < Self.maxListedRepairs {
            repairs.append(.make(kind, at: offset, what))
        } else if let index = unlisted.firstIndex(where: { $0.kind == kind }) {
            unlisted[index].count += 1
        } else {
            unlisted.append(UnlistedRepairs(kind: kind, offset: offset, what: what, count: 1))
        }
    }

    /// Where the repairs stand, to undo the ones recorded after it with ``rollBack(to:)``.
    func repairMark() -> RepairMark { RepairMark(listed: repairs.count, unlisted: unlisted) }

    /// Forgets the repairs recorded since `mark`.
    mutating func rollBack(to mark: RepairMark) {
        repairs.removeLast(repairs.count - mark.listed)
        unlisted = mark.unlisted
    }

    /// Lists the counted repairs after the others, one per kind.
    mutating func summarizeRepairs() {
        for group in unlisted {
            let what =
                group.count == 1
                ? group.what
                : "\(group.what) and \(group.count - 1) more like it after it (past "
                    + "\(Self.maxListedRepairs) repairs, one line per kind)"
            repairs.append(.make(group.kind, at: group.offset, what))
        }
        unlisted = []
    }
}

/// Repairs of one kind made past ``JSONByteParser/maxListedRepairs``: the first one and how many.
struct UnlistedRepairs {
    let kind: JSONRepair.Kind
    let offset: Int
    let what: String
    var count: Int
}

/// A point in a parser's repairs (see ``JSONByteParser/repairMark()``).
struct RepairMark {
    let listed: Int
    let unlisted: [UnlistedRepairs]
}
