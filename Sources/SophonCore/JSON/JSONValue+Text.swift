extension JSONValue {
    /// Strict JSON on one line, no spaces: `{"a":[1,2]}`. Members print in their stored order.
    public var compactText: String {
        var output: [UInt8] = []
        JSONTextWriter(pretty: false).write(self, into: &output, depth: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// Strict JSON indented by two spaces, `"key": value`, empty containers as `[]` and `{}`.
    public var prettyText: String {
        var output: [UInt8] = []
        JSONTextWriter(pretty: true).write(self, into: &output, depth: 0)
        return String(decoding: output, as: UTF8.self)
    }
}

/// Writes ``JSONValue`` as RFC 8259 text, as UTF-8 bytes (a large value is written at memory
/// speed, then turned into one `String`). Non-ASCII characters go out as UTF-8; only `"`,
/// `\` and control characters are escaped.
struct JSONTextWriter {
    let pretty: Bool

    func write(_ value: JSONValue, into output: inout [UInt8], depth: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let text): JSONTextWriter.writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(ASCII.openBracket)
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(ASCII.comma) }
                newline(into: &output, depth: depth + 1)
                write(element, into: &output, depth: depth + 1)
            }
            newline(into: &output, depth: depth)
            output.append(ASCII.closeBracket)
        case .object(let members):
            guard !members.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(ASCII.openBrace)
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(ASCII.comma) }
                newline(into: &output, depth: depth + 1)
                JSONTextWriter.writeString(member.key, into: &output)
                output.append(ASCII.colon)
                if pretty { output.append(ASCII.space) }
                write(member.value, into: &output, depth: depth + 1)
            }
            newline(into: &output, depth: depth)
            output.append(ASCII.closeBrace)
        }
    }

    private func newline(into output: inout [UInt8], depth: Int) {
        guard pretty else { return }
        output.append(ASCII.newline)
        output.append(contentsOf: repeatElement(ASCII.space, count: 2 * depth))
    }

    /// Appends `text` as a quoted JSON string.
    static func writeString(_ text: String, into output: inout String) {
        var bytes: [UInt8] = []
        writeString(text, into: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string, UTF-8: runs of characters that need no escape
    /// are copied at once.
    static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(ASCII.quote)
        var text = text
        text.withUTF8 { writeEscaped($0, into: &output) }
        output.append(ASCII.quote)
    }

    /// Appends the UTF-8 `text` with `"`, `\` and control characters escaped (`\n`, `\u001f`),
    /// no quotes around it: the one escape loop of JSON strings written here and by
    /// ``JSONTextBuilder``.
    static func writeEscaped(_ text: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var runStart = 0
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == ASCII.quote || byte == ASCII.backslash else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
            runStart = index + 1
            output.append(ASCII.backslash)
            switch byte {
            case ASCII.quote, ASCII.backslash: output.append(byte)
            case ASCII.newline: output.append(UInt8(ascii: "n"))
            case ASCII.carriageReturn: output.append(UInt8(ascii: "r"))
            case ASCII.tab: output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            default:
                output.append(contentsOf: "u00".utf8)
                output.append(ASCII.zero + (byte >> 4))  // 0 or 1.
                let low = byte & 0xF
                output.append(low < 10 ? ASCII.zero + low : UInt8(ascii: "a") + low - 10)
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<text.count]))
    }
}

/// Re-indents compact strict JSON text (as ``JSONValue/compactText`` prints it, and as
/// ``ExtractedJSON/text`` holds it) into the pretty form ``JSONValue/prettyText`` prints, byte
/// for byte, without building a ``JSONValue`` tree: two spaces per level, `"key": value`, one
/// member or element per line, empty containers as `{}` and `[]`.
///
/// Compact text has no whitespace outside strings and strings are already escaped, so only
/// the bytes between tokens change. The output goes out in chunks of ``chunkSize`` bytes,
/// each ending on a whole UTF-8 character, so a sink may decode each chunk on its own.
public struct JSONPrettyPrinter {
    /// Bytes gathered before they are handed to the sink (1 MiB).
    public var chunkSize = 1 << 20

    /// A printer with the default chunk size.
    public init() {}

    /// Writes the pretty form of `compact` to `sink`, in chunks of at most ``chunkSize`` bytes
    /// (at least 4 KiB); no newline is added at the end.
    /// - Parameters:
    ///   - compact: compact strict JSON text, UTF-8 (undefined output for other text, but no
    ///     trap: bytes outside the grammar are copied through).
    ///   - sink: receives the chunks in order; each is valid only during the call.
    public func write(_ compact: UnsafeBufferPointer<UInt8>, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var output = ChunkBuffer(capacity: max(4096, chunkSize), sink: sink)
            defer { output.deallocate() }
            Self.reindent(compact, into: &output)
            output.flush(all: true)
        }
    }

    private static func reindent(_ compact: UnsafeBufferPointer<UInt8>, into output: inout ChunkBuffer) {
        var depth = 0
        var index = 0
        let count = compact.count
        while index < count {
            let byte = compact[index]
            switch byte {
            case ASCII.quote:
                let start = index
                index += 1
                while index < count {
                    let inner = compact[index]
                    if inner == ASCII.quote { break }
                    index += inner == ASCII.backslash ? 2 : 1
                }
                index = min(index + 1, count)
                output.append(UnsafeBufferPointer(rebasing: compact[start..<index]))
            case ASCII.openBrace, ASCII.openBracket:
                let close = byte == ASCII.openBrace ? ASCII.closeBrace : ASCII.closeBracket
                if index + 1 < count, compact[index + 1] == close {
                    output.append(byte)
                    output.append(close)
                    index += 2
                } else {
                    output.append(byte)
                    depth += 1
                    output.newline(indent: depth)
                    index += 1
                }
            case ASCII.closeBrace, ASCII.closeBracket:
                depth = max(0, depth - 1)
                output.newline(indent: depth)
                output.append(byte)
                index += 1
            case ASCII.comma:
                output.append(byte)
                output.newline(indent: depth)
                index += 1
            case ASCII.colon:
                output.append(byte)
                output.append(ASCII.space)
                index += 1
            default:
                // A number or a literal: up to the next structural byte.
                let start = index
                index += 1
                while index < count, !Self.endsScalar(compact[index]) { index += 1 }
                output.append(UnsafeBufferPointer(rebasing: compact[start..<index]))
            }
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == ASCII.comma || byte == ASCII.closeBrace || byte == ASCII.closeBracket || byte == ASCII.colon
            || byte == ASCII.quote || byte == ASCII.openBrace || byte == ASCII.openBracket
    }
}

/// The output buffer of ``JSONPrettyPrinter``: flushed to the sink when full, always on a
/// UTF-8 character boundary (the bytes of a split character wait for the next chunk).
extension JSONPrettyPrinter {
    fileprivate struct ChunkBuffer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var used = 0
        let sink: (UnsafeRawBufferPointer) -> Void

        init(capacity: Int, sink: @escaping (UnsafeRawBufferPointer) -> Void) {
            buffer = .allocate(capacity: capacity)
            self.sink = sink
        }

        func deallocate() { buffer.deallocate() }

        mutating func append(_ byte: UInt8) {
            if used == buffer.count { flush(all: false) }
            buffer[used] = byte
            used += 1
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            var offset = 0
            while offset < bytes.count {
                if used == buffer.count { flush(all: false) }
                let step = min(bytes.count - offset, buffer.count - used)
                UnsafeMutableRawPointer(buffer.baseAddress! + used)
                    .copyMemory(from: bytes.baseAddress! + offset, byteCount: step)
                used += step
                offset += step
            }
        }

        mutating func newline(indent: Int) {
            append(ASCII.newline)
            var remaining = 2 * indent
            while remaining > 0 {
                if used == buffer.count { flush(all: false) }
                let step = min(remaining, buffer.count - used)
                (buffer.baseAddress! + used).initialize(repeating: ASCII.space, count: step)
                used += step
                remaining -= step
            }
        }

        /// Hands the buffered bytes to the sink; unless `all`, the bytes of a character cut at the
        /// end are kept for the next chunk.
        mutating func flush(all: Bool) {
            var end = used
            if !all {
                // Back up to the start of the last character; keep it if it is incomplete.
                var lead = used - 1
                while lead > 0, used - lead < 4, buffer[lead] & 0xC0 == 0x80 { lead -= 1 }
                if lead >= 0, buffer[lead] >= 0xC0 {
                    let length = buffer[lead] >= 0xF0 ? 4 : buffer[lead] >= 0xE0 ? 3 : 2
                    if used - lead < length { end = lead }
                }
            }
            guard end > 0 else { return }
            sink(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<end]))
            let kept = used - end
            if kept > 0 {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: buffer.baseAddress! + end, byteCount: kept)
            }
            used = kept
        }
    }
}
