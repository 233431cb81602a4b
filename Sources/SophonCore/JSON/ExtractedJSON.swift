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
