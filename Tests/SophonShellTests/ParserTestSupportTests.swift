import SophonCore
import Testing

@testable import SophonShell

/// A tiny strict JSON reader for the literals these tests need (numbers, strings with simple
/// escapes, true/false/null, arrays, objects). The real parser lives in SophonCore.
enum TinyJSON {
    static func parse(_ text: String) -> JSONValue? {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        reader.skipSpace()
        guard let value = reader.value() else { return nil }
        reader.skipSpace()
        return reader.index == reader.scalars.count ? value : nil
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        mutating func skipSpace() {
            while index < scalars.count, " \t\n\r".unicodeScalars.contains(scalars[index]) { index += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            let word = Array(word.unicodeScalars)
            guard index + word.count <= scalars.count, Array(scalars[index..<(index + word.count)]) == word
            else { return false }
            index += word.count
            return true
        }

        mutating func value() -> JSONValue? {
            guard index < scalars.count else { return nil }
            switch scalars[index] {
            case "n": return literal("null") ? .null : nil
            case "t": return literal("true") ? .bool(true) : nil
            case "f": return literal("false") ? .bool(false) : nil
            case "\"": return string().map(JSONValue.string)
            case "[":
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if literal("]") { return .array(elements) }
                while true {
                    skipSpace()
                    guard let element = value() else { return nil }
                    elements.append(element)
                    skipSpace()
                    if literal("]") { return .array(elements) }
                    guard literal(",") else { return nil }
                }
            case "{":
                index += 1
                var members: [JSONMember] = []
                skipSpace()
                if literal("}") { return .object(members) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard literal(":") else { return nil }
                    skipSpace()
                    guard let member = value() else { return nil }
                    members.append(JSONMember(key, member))
                    skipSpace()
                    if literal("}") { return .object(members) }
                    guard literal(",") else { return nil }
                }
            default:
                var end = index
                while end < scalars.count, "-+.eE0123456789".unicodeScalars.contains(scalars[end]) {
                    end += 1
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[index..<end])
                guard let number = JSONNumber(text: text) else { return nil }
                index = end
                return .number(number)
            }
        }

        mutating func string() -> String? {
            guard literal("\"") else { return nil }
            var text = ""
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                switch scalar {
                case "\"": return text
                case "\\":
                    guard index < scalars.count else { return nil }
                    let escaped = scalars[index]
                    index += 1
                    switch escaped {
                    case "\"", "\\", "/": text.unicodeScalars.append(escaped)
                    case "n": text += "\n"
                    case "t": text += "\t"
                    case "u":
                        guard index + 4 <= scalars.count else { return nil }
                        var hex = ""
                        hex.unicodeScalars.append(contentsOf: scalars[index..<(index + 4)])
                        guard let code = UInt32(hex, radix: 16), let value = Unicode.Scalar(code) else {
                            return nil
                        }
                        text.unicodeScalars.append(value)
                        index += 4
                    default: return nil
                    }
                default:
                    guard scalar.value >= 0x20 else { return nil }
                    text.unicodeScalars.append(scalar)
                }
            }
            return nil
        }
    }
}

/// Shared helpers for the language tests.
enum LanguageTesting {
    static let parser = ShellParser(grammar: .standard, parseJSON: TinyJSON.parse)

    static func parse(_ text: String, name: String = "test.sophon") -> [ParsedCommand] {
        parser.parse(ShellSource(name: name, text: text))
    }

    /// The one command of `text`, or `nil` when there is not exactly one that parsed.
    static func command(_ text: String) -> ShellCommand? {
        let commands = parse(text)
        guard commands.count == 1, case .success(let command) = commands[0].result else { return nil }
        return command
    }

    /// The one error of `text` as `LINE:COL: MESSAGE`, or a note saying what happened instead.
    static func error(_ text: String) -> String {
        let commands = parse(text)
        let failures = commands.compactMap { command -> ShellSyntaxError? in
            if case .failure(let error) = command.result { return error }
            return nil
        }
        guard let failure = failures.first else { return "no error (\(commands.count) commands)" }
        return "\(failure.line):\(failure.column): \(failure.message)"
    }

    /// A word as a readable, exact string: parts joined by ` + `, literals as JSON strings,
    /// references as written; prefixed with `quoted ` or `block `.
    static func render(_ word: ShellWord) -> String {
        let prefix = word.isBlock ? "block " : word.isQuoted ? "quoted " : ""
        let parts = word.parts.map { part in
            switch part {
            case .literal(let text): JSONValue.string(text).compactText
            case .expansion(let reference): reference.description
            }
        }
        return prefix + (parts.isEmpty ? "(empty)" : parts.joined(separator: " + "))
    }

    /// The words of the one command in `text`, rendered; `["<error ...>"]` when it failed.
    static func renderedWords(_ text: String) -> [String] {
        guard let command = command(text) else { return ["<error \(error(text))>"] }
        return command.words.map(render)
    }

    /// An expander over a fixed set of variables.
    static func expander(_ variables: [String: JSONValue]) -> ShellExpander {
        ShellExpander { variables[$0] }
    }
}

@Suite struct ParserTestSupportTests {
    @Test(arguments: [
        ("3", JSONValue.integer(3)),
        ("\"42\"", .string("42")),
        ("{\"a\": [1, 2]}", .object([JSONMember("a", .array([.integer(1), .integer(2)]))])),
        ("[true, null]", .array([.bool(true), .null])),
    ])
    func tinyJSONReadsLiterals(text: String, expected: JSONValue) {
        #expect(TinyJSON.parse(text) == expected)
    }

    @Test(arguments: ["", "Ada Lovelace", "'x'", "{a: 1}", "[1,]", "01"])
    func tinyJSONRefusesNonJSON(text: String) {
        #expect(TinyJSON.parse(text) == nil)
    }
}
