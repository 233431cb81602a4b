import Testing

@testable import SophonCore

/// A bare word among quoted strings in an array is its own element: no heuristic merges
/// neighbouring values (a quote is read as text only when no reading keeps the values apart).
@Suite struct LLMJSONExtractorBareWordTests {
    @Test(arguments: [
        (#"["a", b, "c"]"#, #"["a","b","c"]"#),
        (#"["alpha", "beta", gamma, "delta"]"#, #"["alpha","beta","gamma","delta"]"#),
        (#"["red", green, "blue", "x"]"#, #"["red","green","blue","x"]"#),
        (#"["a",b,"c"]"#, #"["a","b","c"]"#),
        (#"{"k": ["a", b, "c"]}"#, #"{"k":["a","b","c"]}"#),
        (#"["a", two words, "d"]"#, #"["a","two words","d"]"#),
        (#"["a", b]"#, #"["a","b"]"#),
        (#"[b, "a"]"#, #"["b","a"]"#),
        ("[\"a\",\n  b,\n  \"c\"\n]", #"["a","b","c"]"#),
        (#"["a", None, "c"]"#, #"["a",null,"c"]"#),
        // A word after a closing quote and before the next comma: a missing comma, not text.
        (#"["a", "b" c, "d"]"#, #"["a","b","c","d"]"#),
        (#"{"x": ["one" two, "three"]}"#, #"{"x":["one","two","three"]}"#),
        // A quote inside a string is still text when no bare element follows it.
        (#"["he said "hi" twice", "x"]"#, #"["he said \"hi\" twice","x"]"#),
        (#"["she said "no", then left", "x"]"#, #"["she said \"no\", then left","x"]"#),
        (#"["he said "hi" to me, "x"]"#, #"["he said \"hi\" to me","x"]"#),
        // A string that lost its closing quote before `, "z"]` ends at that comma.
        (#"["x", "y, "z"]"#, #"["x","y","z"]"#),
    ])
    func bareWordsStayTheirOwnElement(text: String, expected: String) throws {
        let found = try LLMJSONExtractor().extract(from: text)
        #expect(found.map(\.value.compactText) == [expected])
    }

    @Test func aBareWordIsReportedAsARepair() throws {
        let found = try LLMJSONExtractor().extract(from: #"["a", b, "c"]"#)
        #expect(found.first?.repairs.map(\.kind) == [.quotedBareWord])
    }

    @Test(arguments: ["[see below]", "[a, b]"])
    func aListOfBareWordsAloneIsStillProse(text: String) {
        #expect(throws: LLMJSONExtractionError.self) { try LLMJSONExtractor().extract(from: text) }
    }

    /// For valid JSON arrays of strings, replacing any one element by a bare word never changes
    /// the other elements: the word comes back as that element, the others exactly.
    @Test func replacingOneElementByABareWordKeepsTheOthers() throws {
        var random = LLMJSONExtractorPropertyTests.Random(state: 0xBA5E)
        let words = ["b", "gamma", "in progress", "Delta", "x y z", "maybe"]
        let separators = [", ", ",", ",\n  ", " , "]
        var wrong: [String] = []
        var checked = 0
        for _ in 0..<2_000 {
            let count = 2 + random.next(5)
            let elements = (0..<count).map { _ in LLMJSONExtractorPropertyTests.string(&random) }
            let index = random.next(count)
            let word = words[random.next(words.count)]
            let separator = separators[random.next(separators.count)]
            let texts = elements.enumerated().map { position, element in
                position == index ? word : JSONValue.string(element).compactText
            }
            let text = "[" + texts.joined(separator: separator) + "]"
            var expected = elements.map(JSONValue.string)
            expected[index] = .string(word)
            checked += 1
            guard let found = try? LLMJSONExtractor().extract(from: text),
                found.map(\.value) == [.array(expected)]
            else {
                wrong.append(text)
                continue
            }
        }
        #expect(checked == 2_000)
        #expect(wrong.isEmpty, "\(wrong.count) wrong, e.g.:\n\(wrong.prefix(5).joined(separator: "\n---\n"))")
    }
}
