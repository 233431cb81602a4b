import Testing

@testable import SophonCore

/// The extractor's bounded memory (issue 6): values kept as compact text, a compact stack of
/// open containers, repairs past 1,000 summarized by kind; and that none of it changes a value.
@Suite struct LLMJSONExtractorMemoryTests {
    let extractor = LLMJSONExtractor()

    @Test func textIsTheCompactTextOfTheValueOnTheWholeCorpus() throws {
        let corpus = try ExtractorCorpus.load()
        var checked = 0
        for item in corpus.cases {
            guard let found = try? extractor.extract(from: item.input) else { continue }
            for value in found {
                #expect(value.text == value.value.compactText, "\(item)")
                checked += 1
            }
        }
        #expect(checked >= 250)
    }

    /// Texts longer than the builder's flush size, with multi-byte characters and escapes
    /// across its block boundaries, and a dropped key that was never flushed.
    static let longTexts: [(name: String, text: String, expected: JSONValue)] = [
        (
            "multi-byte", #"[""# + String(repeating: "é", count: 100_003) + #""]"#,
            .array([.string(String(repeating: "é", count: 100_003))])
        ),
        (
            "escapes", #"{"s": ""# + String(repeating: "a\u{01}\\\"", count: 40_000) + #""}"#,
            .object([JSONMember("s", .string(String(repeating: "a\u{01}\"", count: 40_000)))])
        ),
        (
            "dropped key",
            #"{"a": ""# + String(repeating: "x", count: 70_000) + #"", ""#
                + String(repeating: "k", count: 70_000)
                + #"": "#,
            .object([JSONMember("a", .string(String(repeating: "x", count: 70_000)))])
        ),
        (
            "long array", "[" + String(repeating: "1,", count: 50_000) + #"{"a": [true, null, "q"], "b": "#,
            .array(
                Array(repeating: .integer(1), count: 50_000) + [
                    .object([JSONMember("a", .array([.bool(true), .null, .string("q")]))])
                ])
        ),
    ]

    @Test(arguments: longTexts.indices)
    func longTextsAreWrittenWhole(index: Int) throws {
        let (name, text, expected) = Self.longTexts[index]
        let found = try extractor.extract(from: text)
        #expect(found.count == 1, "\(name)")
        let isValue = found.first?.value == expected
        let isText = found.first?.text == expected.compactText
        #expect(isValue, "\(name)")
        #expect(isText, "\(name)")
    }

    @Test func repairsPastAThousandAreSummarizedByKind() throws {
        // `[1 1 1 ...]`: 2,999 missing commas, then `a` and 2 more words read as keys (not in an
        // array: one `{a:1 b:1 ...}` object of 1,500 members).
        let elements = 3_000
        let found = try extractor.extractFirst(
            from: "[1" + String(repeating: " 1", count: elements - 1) + "]")
        #expect(found.text == "[" + Array(repeating: "1", count: elements).joined(separator: ",") + "]")
        #expect(found.repairs.count == 1_001)
        #expect(found.repairs.allSatisfy { $0.kind == .insertedComma })
        // Element i (from 0) starts at offset 1 + 2i; the 1,001st comma goes before element 1,001.
        #expect(found.repairs[999].offset == 1 + 2 * 1_000)
        let summary = found.repairs[1_000]
        #expect(summary.offset == 1 + 2 * 1_001)
        #expect(
            summary.description
                == "inserted the missing ',' and 1998 more like it after it (past 1000 repairs, one line per kind) "
                + "at offset 2003")

        let members = 1_500
        let object = try extractor.extractFirst(
            from: "{" + (0..<members).map { "k\($0): 1" }.joined(separator: " ") + "}")
        #expect(object.value["k1499"] == .integer(1))
        // 1,500 quoted keys and 1,499 inserted commas, alternating; 1,000 listed.
        #expect(object.repairs.count == 1_002)
        #expect(object.repairs.suffix(2).map(\.kind) == [.quotedKey, .insertedComma])
        #expect(object.repairs[1_000].description.contains("and 999 more like it"))
        #expect(object.repairs[1_001].description.contains("and 998 more like it"))
    }

    @Test func deepNestingWithARaisedLimitIsClosedInnermostFirst() throws {
        let depth = 100_000
        let deep = LLMJSONExtractor(options: .init(maxDepth: 2 * depth))
        let found = try deep.extractFirst(from: String(repeating: "[", count: depth))
        #expect(found.text == String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(found.repairs.count == 1_001)
        #expect(found.repairs.prefix(3).map(\.offset) == [depth - 1, depth - 2, depth - 3])
        #expect(found.repairs[1_000].offset == depth - 1_001)

        let mixed = try deep.extractFirst(from: String(repeating: #"{"a":["#, count: depth / 2))
        #expect(mixed.text.hasPrefix(#"{"a":[{"a":[{"#))
        #expect(mixed.text.hasSuffix("]}]}]}"))
        #expect(mixed.text.utf8.count == 8 * depth / 2)
    }

    /// Closers matched against containers far below the top, and far apart (multi-byte links
    /// in the frame stack).
    @Test(arguments: [
        ("[" + String(repeating: " ", count: 300) + "{\"a\": [1, 2}]", "[{\"a\":[1,2]}]"),
        // `}` closes both arrays and the object; `, "b": 2}` is then text after the value.
        ("{\"a\": [" + String(repeating: " ", count: 20_000) + "[1}, \"b\": 2}", "{\"a\":[[1]]}"),
        ("[[[[1]]]]]]", "[[[[1]]]]"),
        ("[{\"a\": {\"b\": [1, 2]]}", "[{\"a\":{\"b\":[1,2]}}]"),
    ])
    func mismatchedClosersFindTheirContainer(text: String, compact: String) throws {
        #expect(try extractor.extractFirst(from: text).text == compact)
    }

    @Test func frameStackRestoresEveryLevel() {
        var stack = JSONFrameStack()
        let levels: [(isObject: Bool, start: Int)] = [
            (true, 3), (false, 4), (false, 200), (true, 70_000), (false, 70_001), (true, 5_000_000_000),
        ]
        for level in levels { stack.push(isObject: level.isObject, start: level.start) }
        #expect(stack.count == 6)
        #expect(stack.openObjects == 3)
        for level in levels.reversed() {
            #expect(stack.topIsObject == level.isObject)
            #expect(stack.topStart == level.start)
            stack.pop()
        }
        #expect(stack.isEmpty)
    }

    @Test func extractedJSONKeepsItsPublicShape() {
        let value = JSONValue.object([JSONMember("a", .array([.integer(1), .string("é\n")]))])
        var found = ExtractedJSON(value: value, range: 0..<10, repairs: [])
        #expect(found.text == #"{"a":[1,"é\n"]}"#)
        #expect(found.value == value)
        #expect(found == ExtractedJSON(value: value, range: 0..<10, repairs: []))
        found.value = .bool(true)
        #expect(found.text == "true")
        #expect(found != ExtractedJSON(value: value, range: 0..<10, repairs: []))
    }
}
