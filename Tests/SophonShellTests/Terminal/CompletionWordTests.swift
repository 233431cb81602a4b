import Testing

@testable import SophonShell

@Suite struct CompletionWordTests {
    static let readings:
        [(before: String, typed: String, value: String, quote: Character?, earlier: [String])] = [
            ("", "", "", nil, []),
            ("source tri", "tri", "tri", nil, ["source"]),
            ("source 'trip pl", "'trip pl", "trip pl", "'", ["source"]),
            ("source \"co\\$t", "\"co\\$t", "co$t", "\"", ["source"]),
            ("source 'a b' ", "", "", nil, ["source", "a b"]),
            ("attach @'my no", "@'my no", "@my no", "'", ["attach"]),
            ("a\t'b c'd", "'b c'd", "b cd", nil, ["a"]),
            ("echo \"x\\\"y", "\"x\\\"y", "x\"y", "\"", ["echo"]),
        ]

    @Test(arguments: readings)
    func readsTheWordWithTheShellsQuotes(
        before: String, typed: String, value: String, quote: Character?, earlier: [String]
    ) {
        let word = CompletionWord(textBeforeCursor: before)
        #expect(word.typed == typed)
        #expect(word.value == value)
        #expect(word.openQuote == quote)
        #expect(word.earlier == earlier)
    }

    static let insertions: [(before: String, text: String, closing: Bool, inserted: String)] = [
        ("source tr", "trip.sophon", true, "trip.sophon"),
        ("source tr", "trip plan.sophon", true, "'trip plan.sophon'"),
        ("source co", "cost$.sophon", true, "'cost$.sophon'"),
        ("source it", "it's.sophon", true, "'it'\"'\"'s.sophon'"),
        ("source 'tr", "trip.sophon", true, "'trip.sophon'"),
        ("source \"co", "cost$ \"x\".sophon", true, "\"cost\\$ \\\"x\\\".sophon\""),
        ("source my", "my dir/", false, "'my dir/"),
        ("attach @my", "@my notes.txt", true, "@'my notes.txt'"),
        ("attach @'my", "@my notes.txt", true, "@'my notes.txt'"),
        ("source #", "#x", true, "'#x'"),
        ("echo caf", "café", true, "café"),
    ]

    @Test(arguments: insertions)
    func quotesWhatItInserts(before: String, text: String, closing: Bool, inserted: String) {
        #expect(CompletionWord(textBeforeCursor: before).inserting(text, closing: closing) == inserted)
    }

    static let plans: [(before: String, candidates: [String], action: LineCompletion.Action)] = [
        ("source tri", ["trip plan.sophon"], .replaceWord(length: 3, text: "'trip plan.sophon' ")),
        ("source 'tri", ["trip plan.sophon"], .replaceWord(length: 4, text: "'trip plan.sophon' ")),
        ("source \"co", ["cost$.sophon"], .replaceWord(length: 3, text: "\"cost\\$.sophon\" ")),
        ("source my", ["my dir/"], .replaceWord(length: 2, text: "'my dir/")),
        ("source t", ["trip a", "trip b"], .replaceWord(length: 1, text: "'trip ")),
        ("source 'trip ", ["trip a", "trip b"], .list(["trip a", "trip b"])),
    ]

    @Test(arguments: plans)
    func completionQuotesNamesTheParserWouldSplit(
        before: String, candidates: [String], action: LineCompletion.Action
    ) {
        #expect(LineCompletion.plan(textBeforeCursor: before, candidates: candidates) == action)
    }
}
