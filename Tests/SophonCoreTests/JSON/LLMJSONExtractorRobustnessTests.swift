import Testing

@testable import SophonCore

/// Truncation at every cut point, mutated inputs, and inputs built to make a naive search
/// quadratic or deep.
@Suite struct LLMJSONExtractorRobustnessTests {
    let extractor = LLMJSONExtractor()

    static let document = #"""
        {"id": 42, "name": "Zoë \"Z\" Ng", "ok": true, "none": null, "neg": -1.5e-3,
         "tags": ["a", "b\u00e9", []], "nested": {"deep": [{"x": false}, {}], "s": "line\nnext"},
         "emoji": "🙂", "big": 12345678901234567890, "last": "end"}
        """#

    /// Whether `partial` is what cutting the text of `full` can give: objects and arrays keep
    /// a prefix of their members (the last possibly cut itself), strings and numbers a prefix
    /// of their text, other values equal.
    static func isCut(_ partial: JSONValue, of full: JSONValue) -> Bool {
        switch (partial, full) {
        case (.object(let part), .object(let whole)):
            guard part.count <= whole.count else { return false }
            for (index, member) in part.enumerated() {
                guard member.key == whole[index].key else { return false }
                let isLast = index == part.count - 1
                guard
                    isLast ? isCut(member.value, of: whole[index].value) : member.value == whole[index].value
                else { return false }
            }
            return true
        case (.array(let part), .array(let whole)):
            guard part.count <= whole.count else { return false }
            for (index, element) in part.enumerated() {
                let isLast = index == part.count - 1
                guard isLast ? isCut(element, of: whole[index]) : element == whole[index] else {
                    return false
                }
            }
            return true
        case (.string(let part), .string(let whole)): return whole.hasPrefix(part)
        case (.number(let part), .number(let whole)): return whole.text.hasPrefix(part.text)
        default: return partial == full
        }
    }

    @Test func everyCutPointGivesAPrefixOfTheValue() throws {
        let full = try JSONValue(parsing: Self.document)
        let scalars = Array(Self.document.unicodeScalars)
        var values = 0
        for cut in 1...scalars.count {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[0..<cut])
            guard let found = try? extractor.extract(from: text) else { continue }
            values += 1
            #expect(found.count == 1, "cut at \(cut)")
            guard let value = found.first?.value else { continue }
            #expect(Self.isCut(value, of: full), "cut at \(cut): \(value.compactText)")
        }
        // Only the cuts after the first key's `:` and before its value (`{"id":`, `{"id": `)
        // recover nothing; the cuts before it (`{` up to `{"id"`) recover `{}`.
        #expect(values == scalars.count - 2)
        #expect(try extractor.extractFirst(from: Self.document).value == full)
    }

    @Test func mutatedInputsNeverGiveNonStrictJSON() throws {
        let alphabet = Array(#"{}[]":,'\/*#.-+0123456789etfnu "#.utf8) + [0x0A, 0xE2, 0x80, 0x9C]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let seed = Array(Self.document.utf8)
        for _ in 0..<1_500 {
            var bytes = seed
            for _ in 0..<(1 + next(6)) {
                let index = next(bytes.count)
                switch next(3) {
                case 0: bytes[index] = alphabet[next(alphabet.count)]
                case 1: bytes.insert(alphabet[next(alphabet.count)], at: index)
                default: bytes.remove(at: index)
                }
            }
            bytes = Array(bytes.prefix(next(bytes.count) + 1))
            let text = String(decoding: bytes, as: UTF8.self)
            guard let found = try? extractor.extract(from: text) else { continue }
            for item in found {
                let reparsed = try JSONValue(parsing: item.value.compactText)
                #expect(reparsed == item.value, "input: \(text)")
                #expect(item.range.lowerBound >= 0 && item.range.upperBound <= text.utf8.count)
            }
        }
    }

    @Test func validJSONIsNeverChanged() throws {
        var state: UInt64 = 0xFACE
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let pieces = [
            "\"", "'", ",", ":", "{", "}", "[", "]", "\\", "\n", "\t", " ", "a", "é", "😀", "//", "/*", "#",
            "...", "…", "“", "”", "true", "null", "1", "-", "NaN", "```", "\", \"", "\": ", "1e5", "None",
        ]
        func string() -> String { (0..<next(8)).map { _ in pieces[next(pieces.count)] }.joined() }
        func value(_ depth: Int) -> JSONValue {
            switch next(depth < 3 ? 7 : 5) {
            case 0: .string(string())
            case 1:
                .number(JSONNumber(text: ["0", "-1", "3.25", "1e-07", "-0.5E+3"][next(5)]) ?? JSONNumber(0))
            case 2: [.bool(true), .bool(false), .null][next(3)]
            case 3, 4: .string(string())
            case 5: .object((0..<next(4)).map { _ in JSONMember(string(), value(depth + 1)) })
            default: .array((0..<next(4)).map { _ in value(depth + 1) })
            }
        }
        for index in 0..<2_000 {
            let root: JSONValue =
                index.isMultiple(of: 2) ? .array([value(1)]) : .object([JSONMember(string(), value(1))])
            let json = index.isMultiple(of: 3) ? root.prettyText : root.compactText
            let text = ["", "Here:\n```json\n" + json + "\n```\nDone.", "Result: " + json + " (end)"][next(3)]
            let found = try extractor.extract(from: text.isEmpty ? json : text)
            #expect(found.map(\.value) == [root], "input: \(text.isEmpty ? json : text)")
            #expect(found.allSatisfy { $0.repairs.allSatisfy { !$0.kind.changesValue } })
        }
    }

    @Test func mutatedCorpusInputsNeverGiveNonStrictJSON() throws {
        var state: UInt64 = 0xC0FFEE
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let alphabet = Array(#"{}[]":,'\/*#.-+0 tn"#.utf8) + [0x0A]
        for item in LLMJSONExtractorCorpusTests.corpus.cases {
            for _ in 0..<8 {
                var bytes = Array(item.input.utf8)
                guard !bytes.isEmpty else { continue }
                for _ in 0..<(1 + next(3)) {
                    let index = next(bytes.count)
                    switch next(3) {
                    case 0: bytes[index] = alphabet[next(alphabet.count)]
                    case 1: bytes.insert(alphabet[next(alphabet.count)], at: index)
                    default: if bytes.count > 1 { bytes.remove(at: index) }
                    }
                }
                let text = String(decoding: bytes, as: UTF8.self)
                guard let found = try? extractor.extract(from: text) else { continue }
                for value in found.map(\.value) {
                    #expect(try JSONValue(parsing: value.compactText) == value, "input: \(text)")
                }
            }
        }
    }

    @Test(arguments: [
        "[a", "{\"", "{\\\"", "[\"", "'", "\"", "[1,", "{x:", "{\"a\" ", "[[1]", "{\"a\":[", "[\"]\" ",
        "```json\n{", "{\\\"a\\\": [\\\"", "[...", "{a b ", "[1 ", "{'a': '",
        "{\"a\": ! ", "{a: [1, ! ",
    ])
    func repeatedPatternsStayFast(pattern: String) {
        let text = String(repeating: pattern, count: 200_000 / pattern.utf8.count)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = try? extractor.extract(from: text) }
        #expect(elapsed < .seconds(30), "a hang or quadratic search on '\(pattern)'")
    }

    @Test func hundredThousandNestedBracketsOfEveryKind() {
        for opener in ["{\"a\":", "[", "{\"a\":[", "{a:", "[{\\\"a\\\":"] {
            let text = String(repeating: opener, count: 100_000)
            #expect(throws: LLMJSONExtractionError.self) { try extractor.extract(from: text) }
        }
    }
}
