import Testing

@testable import SophonCore

/// Inputs found by the `json-parse` fuzz target (docs/reliability.md, Findings): strict JSON
/// that the extractor reads differently.
@Suite struct FuzzRegressionExtractorTests {
    /// A line break between a key and its colon is legal JSON whitespace, but the lenient
    /// string reader takes a quote followed by a line break that does not start the next item
    /// as a quote inside the text, so the key becomes `a"` and swallows the rest. Open: the
    /// quote heuristics belong to the JSON engine's owner; the known issue flags the fix.
    @Test(arguments: [
        ("{\"a\"\n:\"b\"}", #"{"a":"b"}"#),
        // The fuzzer's input: its byte 0x92 reads as U+FFFD.
        ("{\"\"\n:\"\u{FFFD}\\u005de\"}", "{\"\":\"\u{FFFD}]e\"}"),
    ])
    func lineBreakBeforeAColonKeepsTheKey(text: String, strict: String) throws {
        #expect(try JSONValue(parsing: text).compactText == strict)
        withKnownIssue("a quote before a line break and ':' is read as text inside the key") {
            let found = try LLMJSONExtractor().extract(from: text)
            #expect(found.map(\.value.compactText) == [strict])
        }
    }
}
