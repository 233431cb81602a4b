import Synchronization

/// A JSON value kept as its compact strict text and parsed into a ``JSONValue`` tree only when
/// it is first read (``value``), then kept: a large result can be printed from its text and
/// stored (`$last`) without the tree, many times larger, ever being built unless a later
/// command reads into it.
///
/// Safe to share between threads: the parsed tree sits behind a `Mutex`.
public final class LazyJSONValue: Sendable, Equatable, CustomStringConvertible {
    /// The compact strict JSON text (RFC 8259, UTF-8, no spaces), exactly what
    /// ``JSONValue/compactText`` prints for ``value``.
    public let compactText: String
    private let parsed: Mutex<JSONValue?>

    /// A value from its compact text.
    /// - Parameter compactText: compact strict JSON as ``JSONValue/compactText`` prints it
    ///   (``ExtractedJSON/text`` is such text). Other text reads as `null`.
    public init(compactText: String) {
        self.compactText = compactText
        parsed = Mutex(nil)
    }

    /// A value already parsed; its compact text is written now.
    public init(_ value: JSONValue) {
        compactText = value.compactText
        parsed = Mutex(value)
    }

    /// The tree, parsed from ``compactText`` on the first read (linear in its length) and kept.
    public var value: JSONValue {
        parsed.withLock { tree in
            if let tree { return tree }
            let built = ExtractedJSON.tree(compactText)
            tree = built
            return built
        }
    }

    /// Whether the tree was built (tests and benchmarks check that printing did not build it).
    public var isParsed: Bool { parsed.withLock { $0 != nil } }

    /// The string when the value is a JSON string (parsing only then), else `nil`.
    public var stringValue: String? {
        compactText.utf8.first == ASCII.quote ? value.stringValue : nil
    }

    /// Calls `body` with the UTF-8 bytes of ``compactText`` (no copy for a native string).
    public func withCompactUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        if let result = try compactText.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = compactText
        return try copy.withUTF8(body)
    }

    /// Writes the pretty form (``JSONValue/prettyText``, byte for byte) to `sink` in chunks,
    /// without building the tree (see ``JSONPrettyPrinter``).
    /// - Parameters:
    ///   - chunkSize: the most bytes handed to `sink` at once (``JSONPrettyPrinter/chunkSize``);
    ///     default 64 KiB.
    ///   - sink: receives the chunks in order.
    public func writePretty(chunkSize: Int = 1 << 16, to sink: (UnsafeRawBufferPointer) -> Void) {
        var printer = JSONPrettyPrinter()
        printer.chunkSize = chunkSize
        withCompactUTF8 { printer.write($0, to: sink) }
    }

    /// The compact text.
    public var description: String { compactText }

    /// Equal when the texts are equal (compact text is canonical for a stored member order).
    public static func == (lhs: LazyJSONValue, rhs: LazyJSONValue) -> Bool {
        lhs.compactText == rhs.compactText
    }
}
