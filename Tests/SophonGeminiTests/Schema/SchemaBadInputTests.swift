import SophonCore
import Testing

@testable import SophonGemini

/// Huge words in schema text and model names (issue 8, item 5): errors name them cut, and the
/// "did you mean" search skips what is out of reach instead of comparing megabytes.
@Suite struct SchemaBadInputTests {
    static let word = String(repeating: "x", count: 1_000_000)
    static let shown = "\"" + String(repeating: "x", count: 40) + "…\""

    @Test(arguments: [
        (
            "{ a: WORD }",
            "unknown type SHOWN (expected string, integer, number, boolean, an object, an array or quoted values) "
                + "at column 6"
        ),
        ("{ WORD: string, WORD: int }", "duplicate property SHOWN at column 1000013"),
        ("a WORD", "unknown type SHOWN (expected str, int, float or bool) at column 3"),
    ])
    func hugeWordsAreNamedCut(spec: String, message: String) {
        let text = spec.replacingOccurrences(of: "WORD", with: Self.word)
        #expect(throws: GeminiSchemaSyntaxError.self) { try GeminiSchema.parseSpec(text) }
        do {
            _ = try GeminiSchema.parseSpec(text)
        } catch {
            #expect(error.description == message.replacingOccurrences(of: "SHOWN", with: Self.shown))
        }
    }

    @Test(arguments: [("strin", "string"), ("integr", "integer"), ("xxxxxxxxxxxx", nil)])
    func suggestionsStillFindCloseWords(word: String, suggestion: String?) {
        let names = ["string", "integer", "number"]
        #expect(
            EditDistance.closest(to: word, among: names, limit: 2, ignoringCase: true).first == suggestion)
    }

    @Test func hugeWordsHaveNoSuggestion() {
        #expect(EditDistance.closest(to: Self.word, among: ["string", "integer"], limit: 2).isEmpty)
        #expect(GeminiModel.closestPreset(to: Self.word) == nil)
        #expect(GeminiModel.closestPreset(to: "gemini-2.5-flsh") == .gemini25Flash)
    }

    @Test func shortWordsAreQuotedWhole() {
        #expect(JSONValueText.quotedWord("strng") == #""strng""#)
        #expect(
            JSONValueText.quotedWord(String(repeating: "y", count: 40)) == "\""
                + String(repeating: "y", count: 40) + "\"")
    }
}
