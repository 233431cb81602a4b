import Testing

@testable import SophonCore

/// Random documents written the careless way models write them (unquoted keys, single quotes,
/// Python literals, trailing and missing commas, comments, fences): the value must come back
/// exactly.
@Suite struct LLMJSONExtractorPropertyTests {
    /// A seeded generator (PCG-style LCG) so every run sees the same documents.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }
    }

    static let pieces = [
        "\"", ",", ":", "{", "}", "[", "]", "\\", "\n", " ", "a", "é", "😀", "//", "#", "...", "“", "”",
        "true",
        "null", "1", "-", "\", \"", "\": ", "1e5", "None", "x'y",
    ]

    static func string(_ random: inout Random) -> String {
        (0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }.joined()
    }

    static func value(_ random: inout Random, depth: Int) -> JSONValue {
        switch random.next(depth < 3 ? 8 : 5) {
        case 0, 1: return .string(string(&random))
        case 2: return .number(JSONNumber(text: ["0", "-1", "3.25", "1e-07", "123456789"][random.next(5)])!)
        case 3: return [.bool(true), .bool(false), .null][random.next(3)]
        case 4: return .string(["id", "name", "$ref", "_x"][random.next(4)])
        case 5, 6:
            let keys = ["name", "id", "$ref", "_x", "a-b", "k1"]
            return .object(
                (0..<random.next(4)).map { _ in
                    JSONMember(
                        random.chance(50) ? keys[random.next(keys.count)] : string(&random),
                        value(&random, depth: depth + 1))
                })
        default: return .array((0..<random.next(4)).map { _ in value(&random, depth: depth + 1) })
        }
    }

    /// Whether `text` can be written without quotes as a key (`name`, `$ref`, `a-b`).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first,
            first.properties.isAlphabetic || first == "$" || first == "_"
        else { return false }
        return text.unicodeScalars.allSatisfy {
            ($0.isASCII && $0.properties.isAlphabetic) || "$_-0123456789".unicodeScalars.contains($0)
        }
    }

    /// Whether `text` can be written in single quotes unchanged.
    static func singleQuotable(_ text: String) -> Bool {
        !text.contains(where: { "'\\\n\"".contains($0) })
    }

    static func render(_ value: JSONValue, _ random: inout Random, indent: String = "") -> String {
        switch value {
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            var lines: [String] = []
            for (index, member) in members.enumerated() {
                let key: String
                if isIdentifier(member.key), random.chance(50) {
                    key = member.key
                } else if singleQuotable(member.key), random.chance(30) {
                    key = "'" + member.key + "'"
                } else {
                    key = JSONValue.string(member.key).compactText
                }
                var line = indent + "  " + key + ": " + render(member.value, &random, indent: indent + "  ")
                let isLast = index == members.count - 1
                if !isLast, !random.chance(10) { line += "," }
                if isLast, random.chance(30) { line += "," }
                if random.chance(10) { line += " // note" }
                lines.append(line)
            }
            return "{\n" + lines.joined(separator: "\n") + "\n" + indent + "}"
        case .array(let elements):
            let parts = elements.map { render($0, &random, indent: indent + "  ") }
            return "[" + parts.joined(separator: ", ") + (parts.isEmpty || !random.chance(30) ? "" : ",")
                + "]"
        case .bool(let flag): return random.chance(30) ? (flag ? "True" : "False") : (flag ? "true" : "false")
        case .null: return random.chance(30) ? "None" : "null"
        case .string(let text) where singleQuotable(text) && random.chance(30): return "'" + text + "'"
        default: return value.compactText
        }
    }

    @Test func carelessDocumentsComeBackExactly() throws {
        var random = Random(state: 0xD0C)
        var wrong: [String] = []
        var refused = 0
        var bytes = 0
        for _ in 0..<3_000 {
            let members = (0..<(2 + random.next(4))).map { index in
                JSONMember(
                    ["name", "id", "$ref", "k\(index)"][random.next(4)], Self.value(&random, depth: 1))
            }
            let root: JSONValue = random.chance(80) ? .object(members) : .array(members.map(\.value))
            var text = Self.render(root, &random)
            if random.chance(50) { text = "Sure:\n```json\n" + text + "\n```\n" }
            guard let found = try? LLMJSONExtractor().extract(from: text) else {
                refused += 1
                continue
            }
            if found.map(\.value) != [root] { wrong.append(text) }
            bytes += text.utf8.count
        }
        #expect(wrong.count == 0, "wrong values for:\n\(wrong.prefix(5).joined(separator: "\n---\n"))")
        #expect(refused <= 15)
        #expect(bytes > 300_000)  // The documents are not trivial.
    }
}
