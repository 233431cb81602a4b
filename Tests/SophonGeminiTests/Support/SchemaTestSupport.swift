import SophonCore

/// A minimal order-keeping JSON reader for writing test inputs as text. Test support only:
/// it traps on malformed input, which a test fixture never is.
enum TestJSON {
    static func parse(_ text: String) -> JSONValue {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        let value = reader.value()
        reader.skip()
        precondition(reader.index == reader.scalars.count, "trailing text in fixture")
        return value
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func skip() {
            while index < scalars.count, [" ", "\n", "\t", "\r"].contains(scalars[index]) { index += 1 }
        }

        mutating func expect(_ scalar: Unicode.Scalar) {
            skip()
            precondition(scalars[index] == scalar, "expected \(scalar) at \(index)")
            index += 1
        }

        mutating func value() -> JSONValue {
            skip()
            switch scalars[index] {
            case "{":
                index += 1
                var members: [JSONMember] = []
                skip()
                if scalars[index] == "}" {
                    index += 1
                    return .object([])
                }
                repeat {
                    skip()
                    let key = string()
                    expect(":")
                    members.append(JSONMember(key, value()))
                    skip()
                    index += 1
                } while scalars[index - 1] == ","
                precondition(scalars[index - 1] == "}")
                return .object(members)
            case "[":
                index += 1
                var elements: [JSONValue] = []
                skip()
                if scalars[index] == "]" {
                    index += 1
                    return .array([])
                }
                repeat {
                    elements.append(value())
                    skip()
                    index += 1
                } while scalars[index - 1] == ","
                precondition(scalars[index - 1] == "]")
                return .array(elements)
            case "\"": return .string(string())
            case "t":
                index += 4
                return .bool(true)
            case "f":
                index += 5
                return .bool(false)
            case "n":
                index += 4
                return .null
            default:
                var text = ""
                while index < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[index]) {
                    text.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard let number = JSONNumber(text: text) else { preconditionFailure("bad number \(text)") }
                return .number(number)
            }
        }

        mutating func string() -> String {
            skip()
            precondition(scalars[index] == "\"")
            index += 1
            var text = ""
            while scalars[index] != "\"" {
                if scalars[index] == "\\" {
                    index += 1
                    switch scalars[index] {
                    case "n": text += "\n"
                    case "t": text += "\t"
                    default: text.unicodeScalars.append(scalars[index])
                    }
                } else {
                    text.unicodeScalars.append(scalars[index])
                }
                index += 1
            }
            index += 1
            return text
        }
    }
}
