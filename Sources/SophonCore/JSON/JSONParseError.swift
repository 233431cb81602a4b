/// Why strict JSON parsing (``JSONValue/init(parsing:)``) failed, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 byte offset in the input where the problem was found.
    public var offset: Int
    /// 1-based line of ``offset`` (lines end at `\n`).
    public var line: Int
    /// 1-based column of ``offset``, counted in Unicode scalars from the start of the line.
    public var column: Int
    /// What is wrong, e.g. `expected ',' or '}' but found ']'`.
    public var message: String
    /// Whether the input ended before the value was complete (`[1, 2`, `{"a": "b`, `"\u00`,
    /// `1.`, `tr`): the text is the start of a JSON text, cut short. Set whatever the message
    /// says and wherever ``offset`` points (the end, or the start of the string, escape or
    /// literal the end cut); `false` for a problem found before the end (`[1, 2]]`, `{"a" 1`).
    public var inputEnded: Bool

    /// Creates an error.
    /// - Parameters:
    ///   - offset: UTF-8 byte offset of the problem.
    ///   - line: 1-based line of the offset.
    ///   - column: 1-based column of the offset, in Unicode scalars.
    ///   - message: what is wrong.
    ///   - inputEnded: whether the input ended before the value was complete.
    public init(offset: Int, line: Int, column: Int, message: String, inputEnded: Bool = false) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
        self.inputEnded = inputEnded
    }

    /// `line L, column C: MESSAGE`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Why ``LLMJSONExtractor`` could not return a value.
public enum LLMJSONExtractionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing in the text could be read as a JSON object or array, even with repairs (the text
    /// is empty, blank, prose only, or every bracketed candidate failed to parse).
    case noJSONFound
    /// A candidate nests objects and arrays deeper than `limit` levels; `offset` is the UTF-8
    /// byte offset of the bracket that went past the limit.
    case tooDeep(offset: Int, limit: Int)
    /// A number of `length` bytes starting at UTF-8 byte `offset` is longer than
    /// ``LLMJSONExtractor/Options/maxNumberLength``: a model caught in a loop
    /// (`3.0000000…` for hundreds of digits). Refused rather than silently shortened.
    case runawayNumber(offset: Int, length: Int)
    /// A run of consecutive escape sequences (`\\\\\\\\…`, `\n\n\n…`) of `length` bytes
    /// starting at UTF-8 byte `offset` is longer than
    /// ``LLMJSONExtractor/Options/maxEscapeRunLength``: a model caught in a loop. Refused
    /// rather than silently shortened.
    case runawayEscape(offset: Int, length: Int)

    /// One line naming the problem and where it is.
    public var description: String {
        switch self {
        case .noJSONFound:
            "no JSON value found in the text"
        case .tooDeep(let offset, let limit):
            "JSON nested deeper than \(limit) levels at offset \(offset)"
        case .runawayNumber(let offset, let length):
            "a number of \(length) characters at offset \(offset) is too long (a model looping?)"
        case .runawayEscape(let offset, let length):
            "a run of escapes of \(length) characters at offset \(offset) is too long (a model looping?)"
        }
    }
}
