import Testing

@testable import SophonShell

@Suite struct LineReaderCompletionTests {
    static let words: [(before: String, word: String)] = [
        ("", ""),
        ("sav", "sav"),
        ("set mo", "mo"),
        ("set model ", ""),
        ("attach @notes/t", "@notes/t"),
        ("a\tb", "b"),
        ("echo café", "café"),
    ]

    @Test(arguments: words)
    func theWordIsTheTextAfterTheLastBlank(before: String, word: String) {
        #expect(LineCompletion.word(before: before) == word)
    }

    static let plans: [(before: String, candidates: [String], action: LineCompletion.Action)] = [
        ("sav", [], .none),
        ("sav", ["save"], .replaceWord(length: 3, text: "save ")),
        ("set mo", ["model"], .replaceWord(length: 2, text: "model ")),
        ("source ex", ["examples/"], .replaceWord(length: 2, text: "examples/")),
        ("retry-policy att", ["attempts="], .replaceWord(length: 3, text: "attempts=")),
        (
            "s", ["save", "set", "show", "sleep", "source"],
            .list(["save", "set", "show", "sleep", "source"])
        ),
        ("s", ["set", "show", "set"], .list(["set", "show"])),
        ("sh", ["show", "shows"], .replaceWord(length: 2, text: "show")),
        (
            "set model gem", ["gemini-2.5-flash", "gemini-2.5-pro"],
            .replaceWord(length: 3, text: "gemini-2.5-")
        ),
        (
            "set model gemini-2.5-", ["gemini-2.5-flash", "gemini-2.5-pro"],
            .list(["gemini-2.5-flash", "gemini-2.5-pro"])
        ),
        ("echo caf", ["café", "cafés"], .replaceWord(length: 3, text: "café")),
        ("echo é", ["éa", "éb"], .list(["éa", "éb"])),
        ("echo e\u{301}", ["e\u{301}x"], .replaceWord(length: 2, text: "e\u{301}x ")),
        ("", ["help"], .replaceWord(length: 0, text: "help ")),
        ("SA", ["save"], .replaceWord(length: 2, text: "save ")),
        ("x", ["ab", "ac"], .list(["ab", "ac"])),
    ]

    @Test(arguments: plans)
    func plansLikeReadline(before: String, candidates: [String], action: LineCompletion.Action) {
        #expect(LineCompletion.plan(textBeforeCursor: before, candidates: candidates) == action)
    }

    static let prefixes: [(strings: [String], prefix: String)] = [
        ([], ""),
        (["abc"], "abc"),
        (["abc", "abd"], "ab"),
        (["abc", "xyz"], ""),
        (["abc", "ab"], "ab"),
        (["café", "cafe"], "caf"),
        (["e\u{301}a", "e\u{301}b"], "e\u{301}"),
    ]

    @Test(arguments: prefixes)
    func commonPrefixByCharacter(strings: [String], prefix: String) {
        #expect(LineCompletion.commonPrefix(strings) == prefix)
    }

    @Test func columnsRunDownThenAcross() {
        let items = ["save", "set", "show", "sleep", "source"]
        #expect(LineCompletion.columns(items, width: 80) == "save    set     show    sleep   source\n")
        #expect(LineCompletion.columns(items, width: 20) == "save    sleep\nset     source\nshow\n")
        #expect(LineCompletion.columns(items, width: 3) == "save\nset\nshow\nsleep\nsource\n")
        #expect(LineCompletion.columns([], width: 80) == "")
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(LineCompletion.displayWidth("中文") == 4)
        #expect(LineCompletion.displayWidth("café") == 4)
        #expect(LineCompletion.displayWidth("e\u{301}") == 1)
        #expect(LineCompletion.displayWidth("👍🏽") == 2)
        #expect(LineCompletion.columns(["中文", "ab"], width: 80) == "中文  ab\n")
    }

    static let modes:
        [(input: Bool, output: Bool, environment: [String: String], mode: LineReaderFactory.Mode)] = [
            (false, true, ["TERM": "xterm"], .nonInteractive),
            (false, false, [:], .nonInteractive),
            (true, true, ["TERM": "xterm-256color"], .editor),
            (true, true, ["TERM": "dumb"], .plainTerminal),
            (true, true, ["TERM": ""], .plainTerminal),
            (true, true, [:], .plainTerminal),
            (true, false, ["TERM": "xterm"], .plainTerminal),
        ]

    @Test(arguments: modes)
    func choosesTheLineSource(
        input: Bool, output: Bool, environment: [String: String], mode: LineReaderFactory.Mode
    ) {
        #expect(
            LineReaderFactory.mode(inputIsTerminal: input, outputIsTerminal: output, environment: environment)
                == mode)
    }
}
