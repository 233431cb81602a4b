import SophonCore
import Testing

@Suite struct TextEscaperTests {
    @Test func replacesListedScalarsAndKeepsTheRest() {
        let html = TextEscaper(["&": "&amp;", "<": "&lt;"])
        #expect(html.escape("a < b & c é 東") == "a &lt; b &amp; c é 東")
        #expect(html.escape("") == "")
    }

    @Test func otherwiseReplacesOrDropsWhatTheTableLeaves() {
        let escaper = TextEscaper(["-": "\\-"]) { scalar in
            scalar.value == 0x07 ? "" : scalar.value > 0x7F ? "[\(scalar.value)]" : nil
        }
        #expect(escaper.escape("a-b\u{07}é") == "a\\-b[233]")
    }

    @Test func backslashedEscapesQuotesBackslashesAndLineEnds() {
        let escaper = TextEscaper.backslashed { $0.value < 0x20 ? "^" : nil }
        #expect(escaper.escape("say \"hi\"\\\n\t\r\u{1B}.") == "say \\\"hi\\\"\\\\\\n\\t\\r^.")
    }
}
