/// Why ``LLMJSONExtractor`` could not return a value.
public enum LLMJSONExtractionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing in the text could be read as a JSON object or array, even with repairs (the text
    /// is empty, blank, prose only, or every bracketed candidate failed to parse).
    case noJSONFound
    /// A candidate nests objects and arrays deeper than `limit` levels; `offset` is the UTF-8
    /// byte offset of the bracket that went past the limit.
    case tooDeep(offset: Int, limit: Int)

    /// One line naming the problem and where it is.
    public var description: String {
        switch self {
        case .noJSONFound:
            "no JSON value found in the text"
        case .tooDeep(let offset, let limit):
            "JSON nested deeper than \(limit) levels at offset \(offset)"
        }
    }
}
