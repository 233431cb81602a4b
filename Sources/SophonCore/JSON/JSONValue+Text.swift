extension JSONValue {
    /// Strict JSON on one line, no spaces: `{"a":[1,2]}`. Members print in their stored order.
    public var compactText: String {
        var output = ""
        JSONTextWriter(pretty: false).write(self, into: &output, depth: 0)
        return output
    }

    /// Strict JSON indented by two spaces, `"key": value`, empty containers as `[]` and `{}`.
    public var prettyText: String {
        var output = ""
        JSONTextWriter(pretty: true).write(self, into: &output, depth: 0)
        return output
    }
}

/// Writes ``JSONValue`` as RFC 8259 text. Non-ASCII characters go out as UTF-8; only `"`,
/// `\` and control characters are escaped.
struct JSONTextWriter {
    let pretty: Bool

    func write(_ value: JSONValue, into output: inout String, depth: Int) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += number.text
        case .string(let text): JSONTextWriter.writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(into: &output, depth: depth + 1)
                write(element, into: &output, depth: depth + 1)
            }
            newline(into: &output, depth: depth)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                newline(into: &output, depth: depth + 1)
                JSONTextWriter.writeString(member.key, into: &output)
                output += pretty ? ": " : ":"
                write(member.value, into: &output, depth: depth + 1)
            }
            newline(into: &output, depth: depth)
            output += "}"
        }
    }

    private func newline(into output: inout String, depth: Int) {
        guard pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: depth)
    }

    /// Appends `text` as a quoted JSON string.
    static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
