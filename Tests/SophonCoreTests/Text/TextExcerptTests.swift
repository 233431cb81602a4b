import SophonCore
import Testing

/// Excerpts for messages: cut with an ellipsis, separators collapsed.
@Suite struct TextExcerptTests {
    @Test(arguments: [
        ("abcdef", 6, "abcdef"),
        ("abcdefg", 6, "abcdef…"),
        ("", 3, ""),
        ("naïve café", 4, "naïv…"),
        ("abc", -1, "…"),
    ])
    func prefix(text: String, limit: Int, expected: String) {
        #expect(TextExcerpt.prefix(text, limit: limit) == expected)
    }

    @Test func collapsedJoinsRunsOfSeparators() {
        #expect(
            TextExcerpt.collapsed("  <html>\n\t<body>  502 </body>\n", limit: 200)
                == "<html> <body> 502 </body>")
        #expect(TextExcerpt.collapsed("a  b\n\nc", limit: 200, separatedBy: \.isNewline) == "a  b c")
        #expect(TextExcerpt.collapsed("one two three", limit: 7) == "one two…")
    }
}
