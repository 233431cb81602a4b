import Testing

@testable import SophonShell

@Suite struct PastedTextTests {
    @Test func theEndMarkerIsFoundAtTheEndOnly() {
        #expect(PastedText.endsWithEndMarker(Array("a\t\u{1B}[201~".utf8)))
        #expect(!PastedText.endsWithEndMarker(Array("a\u{1B}[201~b".utf8)))
        #expect(!PastedText.endsWithEndMarker(Array("~".utf8)))
    }

    @Test func theContentLosesTheMarkerAndNulBytesButKeepsTabs() {
        #expect(PastedText.content(Array("a\tb\0c\u{1B}[201~".utf8)) == Array("a\tbc".utf8))
        #expect(PastedText.content(Array("no marker".utf8)) == Array("no marker".utf8))
    }

    static let lines: [(pasted: String, text: String, endsLine: Bool, rest: String)] = [
        ("a\tb", "a\tb", false, ""),
        ("one\rtwo", "one", true, "two"),
        ("one\ntwo", "one", true, "two"),
        ("one\r\ntwo\r\n", "one", true, "two\r\n"),
        ("\r", "", true, ""),
        ("", "", false, ""),
    ]

    @Test(arguments: lines)
    func eachLineBreakEntersALine(pasted: String, text: String, endsLine: Bool, rest: String) {
        let line = PastedText.firstLine(Array(pasted.utf8))
        #expect(line == PastedText.Line(text: text, endsLine: endsLine, rest: Array(rest.utf8)))
    }

    @Test func invalidUTF8BecomesAReplacementCharacter() {
        #expect(PastedText.firstLine([0x61, 0xFF, 0x62]).text == "a\u{FFFD}b")
    }
}
