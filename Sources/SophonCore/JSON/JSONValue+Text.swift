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
