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
        /// A second comma between two object members (`{"a": 1,, "b": 2}`) was removed.
        /// (In an array, `[1,,2]` is refused: a hole or a typo cannot be told apart.)
        case removedExtraComma
        /// A missing colon between a key and its value was inserted.
        case insertedColon
        /// A container left open before a closer of another kind (`[1, 2}`) was closed there.
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
