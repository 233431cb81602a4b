/// One change the lenient extractor made to turn model text into strict JSON.
///
/// Every repair names its ``Kind`` and the UTF-8 byte offset in the input of the thing repaired
/// (the opening quote of a closed string, the comma that was removed, the bracket that was left
/// open, the first byte of the skipped prose), plus a readable sentence for logs and stderr.
public struct JSONRepair: Sendable, Hashable, CustomStringConvertible {
    /// What kind of repair was made. Raw values are lowerCamelCase and stable (they appear in
    /// `--json` output); new kinds are added as the tolerant parser grows.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The value came from a fenced Markdown code block (three backticks or `~~~`); the fence
        /// and the text outside it were ignored.
        case strippedFence
        /// Text that is not JSON (prose) before or after the value was ignored.
        case skippedProse
        /// A string cut by the end of the text was closed.
        case closedString
        /// An escape sequence cut by the end of the text was dropped from a closed string.
        case droppedIncompleteEscape
        /// A comma before `}`, `]` or the end of the text was removed.
        case removedTrailingComma
        /// A `{` or `[` still open at the end of the text was closed.
        case closedBracket
        /// An object member without a complete key and value was dropped (never given an
        /// invented value).
        case droppedIncompleteMember
        /// An array element cut before it was a value (a lone `-`) was dropped.
        case droppedIncompleteValue
        /// A literal cut by the end of the text (`tru`, `fals`, `nul`) was completed.
        case completedLiteral
        /// A number missing its last digits (`1.`, `2e`, `3e+`) was cut back to its valid part.
        case completedNumber
        /// A Python literal (`True`, `False`, `None`) was replaced by its JSON literal.
        case convertedPythonLiteral
        /// A single-quoted string was read as a JSON string.
        case convertedSingleQuotes
        /// A `//` or `/* */` comment was removed.
        case removedComment
        /// An invalid escape sequence was kept as literal text, or an unpaired surrogate escape
        /// was replaced by U+FFFD.
        case repairedEscape
        /// A raw control character (such as a newline) inside a string was accepted; it is
        /// written escaped.
        case escapedControlCharacter
        /// `NaN`, `Infinity` or `-Infinity` was replaced by `null` (JSON has no such numbers).
        case replacedNonFiniteNumber
        /// A string in typographic quotes (`“…”`, `‘…’`) was read as a JSON string.
        case convertedCurlyQuotes
        /// An unquoted object key (`{name: 1}`, `$ref`, `_id` kept as written) was quoted.
        case quotedKey
        /// An unquoted word value in an object (`{"status": active}`) was read as a string.
        case quotedBareWord
        /// A missing comma between two members or elements was inserted.
        case insertedComma
        /// A comma that separates nothing was removed: a second comma between two object members
        /// (`{"a": 1,, "b": 2}`), a comma right after `{` (`{, "a": 1}`), or a doubled comma
        /// in an array (`[1,,2]`, the two commas side by side). (`[1, , 2]`, with a space, is
        /// refused: a value left out, not a typo.)
        case removedExtraComma
        /// A missing colon between a key and its value was inserted.
        case insertedColon
        /// An `=` between a key and its value (`{"a" = 1}`) was read as `:`.
        case replacedEqualsSign
        /// A container left open before a closer of another kind (`[1, 2}`, also after a
        /// trailing comma: `{"a": [1, 2,}`) was closed there.
        case closedMismatchedBracket
        /// A closing bracket matching no open container was removed.
        case removedStrayBracket
        /// A string or key that lost its closing quote in the middle of the text (not at its
        /// end: that is ``closedString``) was closed where the next member starts
        /// (`{"a": "x, "b": 1}`) or before its `:` (`{"a: 1}`).
        case insertedClosingQuote
        /// An object whose opening `{` was lost (`"a": 1}`) was read with it put back.
        case insertedOpeningBrace
        /// A quote inside a string that does not end it (`"he said "hi""`) was kept as text.
        case escapedInnerQuote
        /// JSON written escaped, as inside a string (`{\"a\": 1}`), was unescaped and read.
        case unescapedEmbeddedJSON
        /// A `...` or `…` placeholder standing for omitted elements or members was removed.
        case removedEllipsis
        /// A number outside JSON syntax was rewritten: `+1` and `.5` as `1` and `0.5`; `007`
        /// (leading zeros: a code more often than a count) as the string `"007"`.
        case normalizedNumber
        /// An object member written without a value (`{"a": }`, `{"a": ,}`) was dropped.
        case droppedEmptyMember
        /// A word for "no value" from another language (`undefined`, `NULL`, `Null`, `nil`) was
        /// replaced by `null`.
        case convertedNullWord
        /// A Python tuple inside a value (`{'point': (1, 2)}`, `[(1, "a")]`) was read as an
        /// array. A tuple alone in the text is not searched for: parentheses in prose are not
        /// values.
        case convertedTuple
    }

    /// What kind of repair was made.
    public var kind: Kind
    /// UTF-8 byte offset in the input text of the repaired item.
    public var offset: Int
    /// A readable sentence, e.g. `closed the unterminated string that starts at offset 9`.
    public var description: String

    /// Creates a repair record.
    /// - Parameters:
    ///   - kind: what was repaired.
    ///   - offset: UTF-8 byte offset in the input of the repaired item.
    ///   - description: a readable sentence naming the repair and the offset.
    public init(kind: Kind, offset: Int, description: String) {
        self.kind = kind
        self.offset = offset
        self.description = description
    }

    /// A repair whose sentence is `what` followed by ` at offset N`.
    static func make(_ kind: Kind, at offset: Int, _ what: String) -> JSONRepair {
        JSONRepair(kind: kind, offset: offset, description: "\(what) at offset \(offset)")
    }
}

extension JSONRepair.Kind {
    /// Whether the repair changed the JSON itself. Finding the value inside a fence or prose
    /// (``strippedFence``, ``skippedProse``) only locates it: the value's text is unchanged.
    public var changesValue: Bool {
        switch self {
        case .strippedFence, .skippedProse: false
        default: true
        }
    }
}

/// One JSON value found in model text by ``LLMJSONExtractor``.
///
/// The value is kept as its compact strict JSON text (``text``), about the size of the source
/// text, not as a ``JSONValue`` tree (many times larger for a long array of small values);
/// ``value`` builds the tree when asked.
public struct ExtractedJSON: Sendable, Hashable {
    /// The value as compact strict JSON (RFC 8259, UTF-8, no spaces): exactly the text
    /// ``JSONValue/compactText`` prints for ``value``.
    public private(set) var text: String
    /// UTF-8 byte offsets in the input of the source text of the value: from its first byte
    /// (`{`, `[`, ...) to just after its last consumed byte (the end of the text when the value
    /// was cut off and repaired).
    public var range: Range<Int>
    /// The repairs made to obtain ``value``, in the order they apply to the text. A value with
    /// more than 1,000 repairs lists the first 1,000 one by one, then, for each kind of the
    /// rest, its first occurrence with how many more followed it.
    public var repairs: [JSONRepair]

    /// The value, always representable as strict RFC 8259 JSON. Built from ``text`` on each
    /// read (a strict parse, linear in its length; keep it in a local when it is used more
    /// than once); setting it replaces ``text`` with the new value's compact text.
    public var value: JSONValue {
        get { Self.tree(text) }
        set { text = newValue.compactText }
    }

    /// Creates an extracted value.
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - range: UTF-8 byte offsets of its source text in the input.
    ///   - repairs: the repairs made, in text order.
    public init(value: JSONValue, range: Range<Int>, repairs: [JSONRepair]) {
        self.init(text: value.compactText, range: range, repairs: repairs)
    }

    /// Creates an extracted value from compact JSON text that ``JSONTextBuilder`` wrote.
    init(text: String, range: Range<Int>, repairs: [JSONRepair]) {
        self.text = text
        self.range = range
        self.repairs = repairs
    }

    /// The tree of compact text the extractor wrote (strict JSON, any depth).
    static func tree(_ text: String) -> JSONValue {
        var text = text
        return text.withUTF8 { bytes in
            var parser = JSONByteParser(
                bytes: bytes, start: 0, end: bytes.count, mode: .strict, maxDepth: .max)
            // The text is strict JSON written by JSONTextBuilder (or compactText), so this
            // parse does not fail; `null` only keeps a broken invariant from trapping.
            return (try? parser.parseValue()) ?? .null
        }
    }
}
