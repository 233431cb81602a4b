import Testing

@testable import SophonCore

/// Inputs found by the `json-parse` fuzz target (docs/reliability.md, Findings): strict JSON
/// that the extractor reads differently.
@Suite struct FuzzRegressionExtractorTests {
    /// A line break between a key and its colon is legal JSON whitespace: the quote before it
    /// ends the key (the lenient string reader once kept it as text, so the key became `a"`).
    @Test(arguments: [
        ("{\"a\"\n:\"b\"}", #"{"a":"b"}"#),
        // The fuzzer's input: its byte 0x92 reads as U+FFFD.
        ("{\"\"\n:\"\u{FFFD}\\u005de\"}", "{\"\":\"\u{FFFD}]e\"}"),
    ])
    func lineBreakBeforeAColonKeepsTheKey(text: String, strict: String) throws {
        #expect(try JSONValue(parsing: text).compactText == strict)
        let found = try LLMJSONExtractor().extract(from: text)
        #expect(found.map(\.value.compactText) == [strict])
    }
}
