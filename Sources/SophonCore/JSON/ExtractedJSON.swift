/// One JSON value found in model text by ``LLMJSONExtractor``.
public struct ExtractedJSON: Sendable, Hashable {
    /// The value, always representable as strict RFC 8259 JSON.
    public var value: JSONValue
    /// UTF-8 byte offsets in the input of the source text of the value: from its first byte
    /// (`{`, `[`, ...) to just after its last consumed byte (the end of the text when the value
    /// was cut off and repaired).
    public var range: Range<Int>
    /// The repairs made to obtain ``value``, in the order they apply to the text.
    public var repairs: [JSONRepair]

    /// Creates an extracted value.
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - range: UTF-8 byte offsets of its source text in the input.
    ///   - repairs: the repairs made, in text order.
    public init(value: JSONValue, range: Range<Int>, repairs: [JSONRepair]) {
        self.value = value
        self.range = range
        self.repairs = repairs
    }
}
