import Synchronization

/// A location inside a JSON value, written as a JSONPath-style string: `$`, `$.items[2].n`,
/// `$["first name"]`, `$["$id"]`.
///
/// The one spelling of JSON paths in Sophon: the lenient decoder's coercion reports, decoding
/// error summaries, schema validation and coercion notes and tape differences all write paths
/// here. Member names that are identifiers (`name`, `_id`, `item2`) follow a dot; every other
/// name (empty, with spaces, dots or `$`, starting with a digit, non-ASCII) is written in
/// brackets as a JSON string, the normalized form of RFC 9535 whose member-name shorthand
/// does not allow `$`.
///
/// Built from a decoder's coding path: index keys (``JSONPath/IndexKey`` or any key whose
/// `stringValue` is `Index N` with `intValue` N, the convention Foundation's `JSONDecoder` uses)
/// become `[N]`; every other key becomes a member name.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: an object member name or an array index (0-based).
    public enum Component: Sendable, Hashable {
        /// An object member, by name.
        case key(String)
        /// An array element, by 0-based index.
        case index(Int)
    }

    /// The steps from the root, outermost first; empty for the root itself.
    public var components: [Component]

    /// A path made of `components` (outermost first).
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// The path a `Decoder`'s coding path points at.
    ///
    /// - Parameter codingPath: the keys from the root, as in `DecodingError.Context.codingPath`.
    public init(codingPath: [any CodingKey]) {
        components = codingPath.map(JSONPath.component(of:))
    }

    /// The path with one more step at the end.
    public func appending(_ component: Component) -> JSONPath {
        JSONPath(components + [component])
    }

    /// `$` followed by `.name` for identifier-like member names, `["name"]` (JSON string
    /// syntax) for the rest, and `[N]` for indices: `$.items[2]["unit price"]`.
    public var description: String {
        var text = JSONPath.root
        for component in components {
            switch component {
            case .index(let index): text = JSONPath.index(text, index)
            case .key(let name): text = JSONPath.member(text, name)
            }
        }
        return text
    }

    /// The text of the root path, `$`.
    public static let root = "$"

    /// Path text `path` followed by member `name`: `.name` for identifiers, else `["name"]`.
    ///
    /// For code that carries paths as text (schema checks); the result is the same as
    /// appending ``Component/key(_:)`` and printing.
    public static func member(_ path: String, _ name: String) -> String {
        if isIdentifier(name) { return path + "." + name }
        var text = path + "["
        JSONTextWriter.writeString(name, into: &text)
        return text + "]"
    }

    /// Path text `path` followed by array index `index`: `[N]`.
    public static func index(_ path: String, _ index: Int) -> String {
        path + "[\(index)]"
    }

    /// The path component a coding key stands for.
    static func component(of key: any CodingKey) -> Component {
        if let index = key.intValue, key is IndexKey || key.stringValue == "Index \(index)" {
            return .index(index)
        }
        return .key(key.stringValue)
    }

    /// Whether `name` can follow a dot: ASCII letters, digits and `_`, not starting with a
    /// digit (RFC 9535 allows non-ASCII letters too; they are bracketed here so paths stay
    /// ASCII-readable).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar == "_"
        }
    }

    /// The coding key for an array element, named `Index N` like Foundation's `JSONDecoder`.
    public struct IndexKey: CodingKey, Sendable {
        /// `Index N`.
        public var stringValue: String { "Index \(index)" }
        /// The index.
        public var intValue: Int? { index }
        /// The 0-based position in the array.
        public let index: Int

        /// A key for the element at `index` (0-based).
        public init(index: Int) {
            self.index = index
        }

        /// A key from `Index N` text; `nil` for anything else.
        public init?(stringValue: String) {
            guard stringValue.hasPrefix("Index "), let index = Int(stringValue.dropFirst(6)) else {
                return nil
            }
            self.index = index
        }

        /// A key for the element at `intValue`.
        public init?(intValue: Int) {
            index = intValue
        }
    }
}

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
