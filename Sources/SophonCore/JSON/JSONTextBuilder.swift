/// Writes what a ``JSONByteParser`` reads as compact strict JSON (RFC 8259), byte for byte the
/// text ``JSONValue/compactText`` prints for the same value, without building the value: the
/// extractor's output is then about the size of its input, not a tree many times larger.
///
/// The text goes into a `String` in steps of ``flushSize`` bytes (never in the middle of a
/// token, so never in the middle of a character), so the finished text is not copied once
/// more at the end.
///
/// A member's key is written when it is read (with the comma before it); when the member is
/// dropped (``dropKey()``), the output is cut back to where the key started, so a member cut
/// at the end of the text is never given a value.
struct JSONTextBuilder: JSONValueBuilder {
    /// Bytes of text gathered before they are appended to ``text``.
    static var flushSize: Int { 1 << 16 }
    /// The likely size of the whole text (the source's size): reserved at the first flush of
    /// a long text, so the text does not grow by copies (untouched reserved pages cost no
    /// memory). Small texts never flush before the end and reserve nothing.
    var sizeHint = 0
    /// Called after each flush of a long text (see
    /// ``LLMJSONExtractor/extract(fromUTF8:releasingInput:)``).
    var onFlush: (@Sendable () -> Void)?
    /// The text written so far, but for the last bytes, still in ``output``.
    private var text = ""
    /// The last bytes of text written (UTF-8), whole tokens only.
    private var output: [UInt8] = []
    /// Open containers.
    private var depth = 0
    /// A key was written and its value is next (no comma before it).
    private var keyPending = false
    /// Where the pending key's text (and the comma before it) starts in ``output`` (which is
    /// not flushed while a key is pending).
    private var keyMark = 0

    mutating func open(isObject: Bool) {
        separate()
        output.append(isObject ? ASCII.openBrace : ASCII.openBracket)
        depth += 1
        flushIfFull()
    }

    mutating func key(_ key: JSONPiece, in bytes: UnsafeBufferPointer<UInt8>) {
        keyMark = output.count
        separate()
        write(string: key, bytes, isKey: true)
        output.append(ASCII.colon)
        keyPending = true
    }

    mutating func dropKey() {
        guard keyPending else { return }
        output.removeLast(output.count - keyMark)
        keyPending = false
    }

    mutating func scalar(_ scalar: JSONScalar, in bytes: UnsafeBufferPointer<UInt8>) {
        separate()
        switch scalar {
        case .null, .bool: output.append(contentsOf: scalar.literalText.utf8)
        case .number(let piece):
            switch piece {
            case .span(let range): output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            case .bytes(let buffer): output.append(contentsOf: buffer)
            case .literal(let text): output.append(contentsOf: text.utf8)
            }
        case .string(let piece): write(string: piece, bytes, isKey: false)
        }
        flushIfFull()
    }

    mutating func close(isObject: Bool) {
        output.append(isObject ? ASCII.closeBrace : ASCII.closeBracket)
        depth -= 1
        flushIfFull()
    }

    mutating func finish() -> String {
        flush(reserving: false)
        defer { text = "" }
        return text
    }

    private mutating func flushIfFull() {
        if output.count >= Self.flushSize, !keyPending { flush() }
    }

    private mutating func flush(reserving: Bool = true) {
        guard !output.isEmpty else { return }
        if reserving, text.isEmpty { text.reserveCapacity(max(sizeHint, 2 * output.count)) }
        text.append(String(decoding: output, as: UTF8.self))
        output.removeAll(keepingCapacity: true)
        if reserving { onFlush?() }
    }

    /// Writes the comma before a value or key that is not the first in its container.
    private mutating func separate() {
        if keyPending {
            keyPending = false
        } else if depth > 0, let last = output.last ?? text.utf8.last, last != ASCII.openBracket,
            last != ASCII.openBrace
        {
            // The innermost container's last byte is its opener only while it is empty.
            output.append(ASCII.comma)
        }
    }

    /// Writes a string; `isKey`: it is a key, which may yet be dropped, so it is not flushed.
    private mutating func write(string piece: JSONPiece, _ bytes: UnsafeBufferPointer<UInt8>, isKey: Bool) {
        switch piece {
        case .span(let range): writeQuoted(UnsafeBufferPointer(rebasing: bytes[range]), mayFlush: !isKey)
        case .bytes(let buffer): buffer.withUnsafeBufferPointer { writeQuoted($0, mayFlush: !isKey) }
        case .literal(var text): text.withUTF8 { writeQuoted($0, mayFlush: !isKey) }
        }
    }

    /// Writes `text` as a quoted JSON string, escaped as ``JSONTextWriter/writeString(_:into:)``
    /// escapes it: `"`, `\` and control characters only. A long value string is flushed every
    /// ``flushSize`` bytes of it, between characters.
    private mutating func writeQuoted(_ text: UnsafeBufferPointer<UInt8>, mayFlush: Bool) {
        output.append(ASCII.quote)
        var blockStart = 0
        while blockStart < text.count {
            var blockEnd = min(text.count, blockStart + Self.flushSize)
            while blockEnd < text.count, text[blockEnd] & 0xC0 == 0x80 { blockEnd += 1 }  // Mid-character.
            writeEscaped(UnsafeBufferPointer(rebasing: text[blockStart..<blockEnd]))
            blockStart = blockEnd
            if mayFlush, output.count >= Self.flushSize { flush() }  // Reserves once.
        }
        output.append(ASCII.quote)
    }

    /// Writes `text` with `"`, `\` and control characters escaped (``JSONTextWriter``'s loop).
    private mutating func writeEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        JSONTextWriter.writeEscaped(text, into: &output)
    }
}

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
