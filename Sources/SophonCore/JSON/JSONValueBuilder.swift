/// Text a ``JSONByteParser`` read for a string, key or number, without copying it yet.
enum JSONPiece {
    /// Bytes of the parser's buffer, as written: string contents with nothing to unescape
    /// (they may still hold characters JSON escapes, such as `"` in a single-quoted string),
    /// or a number literal.
    case span(Range<Int>)
    /// Unescaped UTF-8 text (a string that held escapes, or was repaired).
    case bytes([UInt8])
    /// Text made up by a repair (a rewritten number: `+1` as `1`).
    case literal(String)
}

/// A scalar value a ``JSONByteParser`` read.
enum JSONScalar {
    case null
    case bool(Bool)
    /// A number in RFC 8259 syntax.
    case number(JSONPiece)
    case string(JSONPiece)

    /// The JSON text of a literal (`null`, `true`, `false`); empty for numbers and strings.
    var literalText: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number, .string: ""
        }
    }
}

/// What a ``JSONByteParser`` does with what it reads: build a ``JSONValue`` tree
/// (``JSONTreeBuilder``) or write compact JSON text (``JSONTextBuilder``).
///
/// The parser calls, in text order: ``open(isObject:)`` for `{` or `[`; in an object,
/// ``key(_:in:)`` before each member's value, and ``dropKey()`` when that member is dropped
/// (its value is missing or cut: it is never given one); ``scalar(_:in:)`` for each scalar;
/// ``close(isObject:)`` when a container ends (or is closed by a repair). Every value read,
/// containers included, belongs to the innermost open container (after its key in an
/// object); the value read outside any container is the result, given by ``finish()``.
protocol JSONValueBuilder {
    associatedtype Output
    mutating func open(isObject: Bool)
    mutating func key(_ key: JSONPiece, in bytes: UnsafeBufferPointer<UInt8>)
    mutating func dropKey()
    mutating func scalar(_ scalar: JSONScalar, in bytes: UnsafeBufferPointer<UInt8>)
    mutating func close(isObject: Bool)
    /// The value read, once the outermost container closed or a top-level scalar was read.
    mutating func finish() -> Output
}

/// Builds the ``JSONValue`` tree: for ``JSONValue/init(parsing:)`` and ``ExtractedJSON/value``.
struct JSONTreeBuilder: JSONValueBuilder {
    private struct Level {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [JSONMember] = []
        var key = ""
    }

    private var levels: [Level] = []
    private var root = JSONValue.null

    mutating func open(isObject: Bool) { levels.append(Level(isObject: isObject)) }

    mutating func key(_ key: JSONPiece, in bytes: UnsafeBufferPointer<UInt8>) {
        levels[levels.count - 1].key = Self.string(key, bytes)
    }

    mutating func dropKey() {}

    mutating func scalar(_ scalar: JSONScalar, in bytes: UnsafeBufferPointer<UInt8>) {
        let value: JSONValue
        switch scalar {
        case .null: value = .null
        case .bool(let flag): value = .bool(flag)
        case .number(let piece): value = .number(JSONNumber(checkedText: Self.string(piece, bytes)))
        case .string(let piece): value = .string(Self.string(piece, bytes))
        }
        add(value)
    }

    mutating func close(isObject: Bool) {
        let level = levels.removeLast()
        add(level.isObject ? .object(level.members) : .array(level.elements))
    }

    mutating func finish() -> JSONValue { root }

    private mutating func add(_ value: JSONValue) {
        guard !levels.isEmpty else {
            root = value
            return
        }
        let last = levels.count - 1
        if levels[last].isObject {
            levels[last].members.append(JSONMember(levels[last].key, value))
        } else {
            levels[last].elements.append(value)
        }
    }

    static func string(_ piece: JSONPiece, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch piece {
        case .span(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .bytes(let buffer): String(decoding: buffer, as: UTF8.self)
        case .literal(let text): text
        }
    }
}

extension JSONByteParser where Builder == JSONTreeBuilder {
    /// A parser that builds a ``JSONValue``.
    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, mode: Mode, maxDepth: Int) {
        self.init(
            bytes: bytes, start: start, end: end, mode: mode, maxDepth: maxDepth, builder: JSONTreeBuilder())
    }
}
