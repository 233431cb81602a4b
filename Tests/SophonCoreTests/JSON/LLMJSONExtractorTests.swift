import Testing

@testable import SophonCore

/// Finding values in model text: fences, prose, several values, nothing to find, deep nesting.
@Suite struct LLMJSONExtractorTests {
    let extractor = LLMJSONExtractor()

    @Test func fencedJSONWithProseAround() throws {
        let text = "Here you go:\n```json\n{\"a\": 1}\n```\nHope that helps."
        let found = try extractor.extract(from: text)
        #expect(found.count == 1)
        #expect(found[0].value.compactText == #"{"a":1}"#)
        #expect(found[0].range == 21..<29)
        #expect(found[0].repairs.map(\.kind) == [.strippedFence])
        #expect(found[0].repairs.map(\.offset) == [13])
        #expect(found[0].repairs[0].description == "took the value from the fenced block at offset 13")
    }

    @Test(arguments: ["```json", "```JSON", "```js", "```", "~~~", "~~~json", "````json"])
    func anyLanguageTag(opener: String) throws {
        let closer = opener.hasPrefix("~") ? "~~~" : String(opener.prefix { $0 == "`" })
        let text = "Result:\n\(opener)\n{\"ok\": true}\n\(closer)\nDone."
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [#"{"ok":true}"#])
        #expect(found[0].repairs.map(\.kind) == [.strippedFence])
        #expect(found[0].repairs.map(\.offset) == [8])
    }

    @Test func twoFencedBlocksAreBothReturnedInOrder() throws {
        let text = "First:\n```json\n{\"a\": 1}\n```\nSecond:\n```json\n[2, 3]\n```\n"
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [#"{"a":1}"#, "[2,3]"])
        #expect(found.map(\.range) == [15..<23, 44..<50])
        #expect(found.map { $0.repairs.map(\.offset) } == [[7], [36]])
    }

    @Test func fenceWithoutJSONFallsBackToTheWholeText() throws {
        let text = "```python\nprint(1)\n```\nAnswer: {\"a\": 1}"
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [#"{"a":1}"#])
        #expect(found[0].range == 31..<39)
        #expect(found[0].repairs.map(\.kind) == [.skippedProse])
        #expect(found[0].repairs.map(\.offset) == [23])  // The prose after the code block.
    }

    @Test func arrayInsideProse() throws {
        let found = try extractor.extract(from: "Here: [1, 2, 3] done")
        #expect(found.map(\.value.compactText) == ["[1,2,3]"])
        #expect(found[0].range == 6..<15)
        #expect(found[0].repairs.map(\.kind) == [.skippedProse, .skippedProse])
        #expect(found[0].repairs.map(\.offset) == [0, 16])
    }

    @Test(arguments: [
        (#"Result: {"text": "a } b { \" c [", "n": 1} end"#, #"{"text":"a } b { \" c [","n":1}"#, 8..<42),
        (#"{"k": "]]]}}}"} tail"#, #"{"k":"]]]}}}"}"#, 0..<15),
        (#"x ["[", "{", "\\"] y"#, #"["[","{","\\"]"#, 2..<18),
    ])
    func bracketsAndQuotesInsideStrings(text: String, compact: String, range: Range<Int>) throws {
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [compact])
        #expect(found.first?.range == range)
    }

    @Test func ndjsonLinesAreEachReturned() throws {
        let found = try extractor.extract(from: "{\"a\":1}\n{\"b\":2}\n[3]\n")
        #expect(found.map(\.value.compactText) == [#"{"a":1}"#, #"{"b":2}"#, "[3]"])
        #expect(found.map(\.range) == [0..<7, 8..<15, 16..<19])
        #expect(found.allSatisfy { $0.repairs.isEmpty })
    }

    @Test(arguments: [
        ("[Thinking] The field {x} is in pixels. {\"width\": 3}", #"{"width":3}"#, 39),
        ("the field {x} is in pixels: {\"w\": [1]}", #"{"w":[1]}"#, 28),
        ("[Note: see below]\n[{\"id\": 1}]", #"[{"id":1}]"#, 18),
        ("{ not json {\"a\": true} }", #"{"a":true}"#, 11),
        ("Use ['] for quotes. {\"a\": 1}", #"{"a":1}"#, 20),
    ])
    func realJSONIsPreferredOverBracketedProse(text: String, compact: String, start: Int) throws {
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [compact])
        #expect(found.first?.range.lowerBound == start)
    }

    @Test(arguments: [
        "no json here", "", "   \n\t ", "Sure! [", "use { and } carefully", "[Thinking]", "Here: {\"a\": ",
        "see (1, 2) here", "{\"title\": ", "{\"a\": (see below)}",
    ])
    func nothingRecoverableIsRefused(text: String) {
        #expect(throws: LLMJSONExtractionError.noJSONFound) { try extractor.extract(from: text) }
        #expect(throws: LLMJSONExtractionError.noJSONFound) { try extractor.extractFirst(from: text) }
    }

    @Test(arguments: [
        ("```json\n\"hello\"\n```", #""hello""#, 8..<15, [JSONRepair.Kind.strippedFence]),
        ("42", "42", 0..<2, [JSONRepair.Kind]()),
        ("  true \n", "true", 2..<6, []),
        (#""caf\u00e9""#, #""café""#, 0..<11, []),
    ])
    func wholeScalarIsReturned(text: String, compact: String, range: Range<Int>, kinds: [JSONRepair.Kind])
        throws
    {
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [compact])
        #expect(found.first?.range == range)
        #expect(found.first?.repairs.map(\.kind) == kinds)
    }

    @Test(arguments: ["n", "The answer is 42", "tru", "\"open", "42 and 43"])
    func scalarsInProseAreNotValues(text: String) {
        #expect(throws: LLMJSONExtractionError.noJSONFound) { try extractor.extract(from: text) }
    }

    @Test func noJSONFoundMessage() {
        #expect(LLMJSONExtractionError.noJSONFound.description == "no JSON value found in the text")
        #expect(
            LLMJSONExtractionError.tooDeep(offset: 512, limit: 512).description
                == "JSON nested deeper than 512 levels at offset 512")
    }

    @Test func extractFirstReturnsTheFirstValue() throws {
        let first = try extractor.extractFirst(from: "a {\"x\": 1} b\n[2]")
        #expect(first.value.compactText == #"{"x":1}"#)
        #expect(first.range == 2..<10)
        #expect(first.repairs.map(\.kind) == [.skippedProse])
    }

    @Test(arguments: [100_000, 513])
    func deepNestingIsATypedError(depth: Int) {
        let open = String(repeating: "[", count: depth)
        for text in [open, open + String(repeating: "]", count: depth), "x " + open] {
            let offset = text.hasPrefix("x") ? 514 : 512
            #expect(throws: LLMJSONExtractionError.tooDeep(offset: offset, limit: 512)) {
                try extractor.extract(from: text)
            }
        }
    }

    @Test func nestingAtTheLimitIsAccepted() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try extractor.extractFirst(from: text).value.compactText == text)
        let shallow = LLMJSONExtractor(options: .init(maxDepth: 2))
        #expect(throws: LLMJSONExtractionError.tooDeep(offset: 2, limit: 2)) {
            try shallow.extract(from: "[[[1]]]")
        }
    }

    @Test func largeTruncatedDocumentIsRepaired() throws {
        var text = "["
        for index in 0..<20_000 { text += #"{"id": \#(index), "tags": ["a", "b"]}, "# }
        text += #"{"id": 20000, "tags": ["a", "b"#
        let found = try extractor.extract(from: text)
        #expect(found.count == 1)
        guard case .array(let elements) = found[0].value else {
            Issue.record("expected an array")
            return
        }
        #expect(elements.count == 20_001)
        #expect(elements.last?.compactText == #"{"id":20000,"tags":["a","b"]}"#)
        #expect(
            found[0].repairs.map(\.kind) == [.closedString, .closedBracket, .closedBracket, .closedBracket])
    }
}
