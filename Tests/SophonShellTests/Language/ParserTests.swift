import SophonCore
import Testing

@testable import SophonShell

/// Command splitting, raw arguments of prompt-like commands, and the REPL's continuation test.
@Suite struct ParserTests {
    /// (input, words, raw argument or "nil").
    static let rawCases: [(String, [String], String)] = [
        ("ask What's in C#?", [#""ask""#], #""What's in C#?""#),
        (#"ask --model x "quoted # arg""#, [#""ask""#, #""--model""#, #""x""#], #"quoted "quoted # arg""#),
        (#"ask cost is \$5 for $n"#, [#""ask""#], #""cost is $5 for " + $n"#),
        ("ask --model=x hi", [#""ask""#, #""--model=x""#], #""hi""#),
        ("ask --no-schema Tell me \"a joke\"", [#""ask""#, #""--no-schema""#], #""Tell me \"a joke\"""#),
        ("ask -- --not an option", [#""ask""#], #""--not an option""#),
        ("ask hi   ", [#""ask""#], #""hi""#),
        ("ask", [#""ask""#], "nil"),
        ("ask --model x", [#""ask""#, #""--model""#, #""x""#], "nil"),
        ("ask 'single quoted' # comment", [#""ask""#], #"quoted "single quoted""#),
        ("ask \"\"\"\n  multi\n  line\n  \"\"\"", [#""ask""#], #"block "multi\nline""#),
        ("ask line one \\\nline two", [#""ask""#], #""line one line two""#),
        (#"ask path C:\dir\file"#, [#""ask""#], #""path C:\\dir\\file""#),
        ("ask ${last.title} again", [#""ask""#], #"${last.title} + " again""#),
        ("chat Hi, I'm Ada # not a comment", [#""chat""#], #""Hi, I'm Ada # not a comment""#),
        ("tokens don't split", [#""tokens""#], #""don't split""#),
        (
            "extract --schema '{ a: string }' {\"a\": 1,}",
            [#""extract""#, #""--schema""#, #"quoted "{ a: string }""#], #""{\"a\": 1,}""#
        ),
        ("extract @reply.txt", [#""extract""#, #""@reply.txt""#], "nil"),
        ("schema show gemini", [#""schema""#, #""show""#, #""gemini""#], "nil"),
        ("schema clear", [#""schema""#, #""clear""#], "nil"),
        ("schema { title: string, year: integer }", [#""schema""#], #""{ title: string, year: integer }""#),
        ("schema @person.json", [#""schema""#, #""@person.json""#], "nil"),
        // `$` rules as everywhere: a `$` before a non-name is literal.
        ("ask costs $5 and $", [#""ask""#], #""costs $5 and $""#),
    ]

    @Test(arguments: rawCases)
    func rawArguments(input: String, words: [String], raw: String) {
        let command = LanguageTesting.command(input)
        #expect(command?.words.map(LanguageTesting.render) == words)
        #expect(command.map { $0.rawArgument.map(LanguageTesting.render) ?? "nil" } == raw)
    }

    static let rawErrorCases: [(String, String)] = [
        // Not a prompt-like command: the apostrophe opens a quote.
        ("echo What's up", "1:10: unterminated single quote"),
        (
            #"ask "quoted" extra"#,
            "1:14: unexpected text after the quoted argument; quote all of the argument or none of it"
        ),
        ("ask --model", "1:12: option --model needs a value"),
        ("ask trailing \\", "1:14: a backslash at the end of the input continues nothing"),
        ("ask ${v.}", "1:9: expected a field name after '.'"),
    ]

    @Test(arguments: rawErrorCases)
    func rawArgumentErrors(input: String, expected: String) {
        #expect(LanguageTesting.error(input) == expected)
    }

    @Test func commandsKeepTheirFirstLineAndTypedText() {
        let input = "echo a\n\n# comment\n  echo b # trailing\necho \"c\nd\" \\\n  e\necho f"
        let commands = LanguageTesting.parse(input)
        #expect(commands.map(\.line) == [1, 4, 5, 8])
        #expect(commands.map(\.text) == ["echo a", "echo b # trailing", "echo \"c\nd\" \\\n  e", "echo f"])
        #expect(
            commands.map { (try? $0.result.get())?.words.map(LanguageTesting.render) ?? [] } == [
                [#""echo""#, #""a""#], [#""echo""#, #""b""#],
                [#""echo""#, #"quoted "c\nd""#, #""e""#], [#""echo""#, #""f""#],
            ])
    }

    @Test func aSyntaxErrorFailsOnlyItsCommand() {
        let commands = LanguageTesting.parse("echo one\necho \"a\\q\nb\" more\necho three")
        #expect(commands.map(\.line) == [1, 2, 4])
        #expect(commands.map(\.text) == ["echo one", "echo \"a\\q\nb\" more", "echo three"])
        let outcomes = commands.map { command -> String in
            switch command.result {
            case .success(let parsed): parsed.words.map(\.description).joined(separator: " ")
            case .failure(let error): "\(error.line):\(error.column)"
            }
        }
        #expect(outcomes == ["echo one", "2:8", "echo three"])
    }

    @Test func aContinuationThatEndsTheInputIsAnError() {
        let commands = LanguageTesting.parse("echo a\n\\\n")
        #expect(commands.count == 2)
        guard commands.count == 2, case .failure(let error) = commands[1].result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message == "a backslash at the end of the input continues nothing")
        #expect((error.line, error.column, error.isIncomplete) == (2, 1, true))
    }

    @Test func blankAndCommentLinesMakeNoCommand() {
        #expect(LanguageTesting.parse("").isEmpty)
        #expect(LanguageTesting.parse("\n  \n# only a comment\n\t# another\n").isEmpty)
    }

    static let statusCases: [(String, ShellInputStatus)] = [
        ("echo hi", .complete),
        ("", .complete),
        ("# comment", .complete),
        ("echo 'a", .needsContinuation),
        ("echo \"a", .needsContinuation),
        ("echo \"a\nb", .needsContinuation),
        ("echo \"a\nb\"", .complete),
        ("echo \"\"\"", .needsContinuation),
        ("echo \"\"\"\n  x", .needsContinuation),
        ("echo \"\"\"\n  x\n  \"\"\"", .complete),
        ("echo hi \\", .needsContinuation),
        ("echo hi \\\n", .needsContinuation),
        ("echo hi \\\nthere", .complete),
        ("ask What's up", .complete),
        ("ask \"\"\"", .needsContinuation),
        ("ask trailing \\", .needsContinuation),
        // Errors that more input cannot fix are complete: running them reports the error.
        ("echo \"\\q\"", .complete),
        ("echo ${a", .complete),
        ("let x = [1,", .complete),
        // An earlier error does not hide a quote left open.
        ("echo ${} \"abc", .needsContinuation),
    ]

    @Test(arguments: statusCases)
    func inputStatus(text: String, expected: ShellInputStatus) {
        #expect(LanguageTesting.parser.inputStatus(of: text) == expected)
    }
}
