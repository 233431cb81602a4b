import Testing

@testable import SophonCore

/// The search around the parser: code blocks in other languages, brackets read inside a failed
/// candidate's strings, bracketed prose beside real values.
@Suite struct LLMJSONExtractorSearchTests {
    let extractor = LLMJSONExtractor()

    @Test func codeBlocksInOtherLanguagesAreSearchedLast() throws {
        let text = "```python\nprint({'x': 1})\n```\nThe answer is {\"x\": 2}."
        let found = try extractor.extract(from: text)
        #expect(found.map(\.value.compactText) == [#"{"x":2}"#])
        #expect(found[0].range == 44..<52)
        let onlyCode = try extractor.extract(from: "```python\nd = {'x': 1}\n```\n")
        #expect(onlyCode.map(\.value.compactText) == [#"{"x":1}"#])
    }

    @Test(arguments: [
        ("json", true), ("JSON", true), ("jsonc", true), ("", true), ("js", true), ("text", true),
        ("python", false), ("bash", false), ("swift", false),
    ])
    func fenceTagsThatMayHoldJSON(tag: String, expected: Bool) {
        var text = "```\(tag)\n{}\n```\n"
        let blocks = text.withUTF8 { MarkdownFenceScanner.blocks(in: $0) }
        #expect(blocks.map(\.tag) == [tag.lowercased()])
        #expect(blocks.map(\.mayHoldJSON) == [expected])
        #expect(blocks.map(\.extent) == [0..<(text.utf8.count)])
    }

    @Test func bracketReadInsideAWronglyOpenedStringIsFound() throws {
        let found = try extractor.extract(from: #"He said ["hi] and {"a": 1}"#)
        #expect(found.map(\.value.compactText) == [#"{"a":1}"#])
        #expect(found[0].range == 18..<26)
    }

    @Test func valueNestedInABrokenOneIsNotData() {
        #expect(throws: LLMJSONExtractionError.noJSONFound) {
            try extractor.extract(from: #"{"a": [1, 2], "b": !!!}"#)
        }
    }

    @Test(arguments: [
        ("{Note: values are estimates}\n{\"estimate\": 120}", [#"{"estimate":120}"#]),
        ("As shown in [1], the value is {\"rate\": 0.5}.", [#"{"rate":0.5}"#]),
        ("{mode: fast}", [#"{"mode":"fast"}"#]),
        ("Values: [1]", ["[1]"]),
        ("{\"a\": 1}\n[]\n", [#"{"a":1}"#, "[]"]),
    ])
    func bracketedProseIsDroppedBesideRealValues(text: String, values: [String]) throws {
        #expect(try extractor.extract(from: text).map(\.value.compactText) == values)
    }

    @Test func repeatedEscapedBracketsStayWithinTheBudget() {
        let text = String(repeating: #"{\"a\": !, "#, count: 20_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: LLMJSONExtractionError.noJSONFound) { try extractor.extract(from: text) }
        }
        #expect(elapsed < .seconds(30))
    }

    @Test(arguments: [
        ("{\"a\": 1,\r\n\"b\": \"x\r\n", #"{"a":1,"b":"x"}"#),
        ("```json\r\n{\"a\": 1}\r\n```\r\n", #"{"a":1}"#),
        ("{\"a\": \"x\"\r\n\"b\": 2}", #"{"a":"x","b":2}"#),
        ("{\"text\": \"first line\n", #"{"text":"first line"}"#),
    ])
    func windowsLineEndsAndCutNewlines(text: String, compact: String) throws {
        #expect(try extractor.extract(from: text).map(\.value.compactText) == [compact])
    }
}
