import SophonCore
import Testing

@testable import SophonShell

/// `RawArgumentSpec.leadingName`: one name before the raw argument (`tool NAME SPEC`,
/// `tool-reply NAME JSON`), taken only when more text follows it.
@Suite struct ParserLeadingNameTests {
    static let parser = ShellParser(
        grammar: ShellGrammar(rawCommands: [
            "tool": RawArgumentSpec(wordKeywords: ["show", "clear"], wordPrefixes: ["@"], leadingName: true),
            "tool-reply": RawArgumentSpec(leadingName: true),
        ]),
        parseJSON: ShellParser.strictJSON)

    static func render(_ command: ShellCommand?) -> String {
        guard let command else { return "nil" }
        var text = command.words.map(LanguageTesting.render).joined(separator: ", ")
        if let raw = command.rawArgument { text += " | raw " + LanguageTesting.render(raw) }
        return text
    }

    static func line(_ text: String) -> String {
        let commands = parser.parse(ShellSource(name: "t", text: text))
        guard commands.count == 1, case .success(let command) = commands[0].result else { return "error" }
        return render(command)
    }

    static let lines: [(String, String)] = [
        (
            #"tool get_weather { city: string } "Now""#,
            #""tool", "get_weather" | raw "{ city: string } \"Now\"""#
        ),
        ("tool now", #""tool" | raw "now""#),
        ("tool show get_weather", #""tool", "show", "get_weather""#),
        ("tool @decl.json", #""tool", "@decl.json""#),
        (#"tool-reply {"temp_c": 18}"#, #""tool-reply" | raw "{\"temp_c\": 18}""#),
        (#"tool-reply get_weather {"temp_c": 18}"#, #""tool-reply", "get_weather" | raw "{\"temp_c\": 18}""#),
        ("tool-reply true", #""tool-reply" | raw "true""#),
        ("tool-reply get_weather 4", #""tool-reply", "get_weather" | raw "4""#),
    ]

    @Test(arguments: lines)
    func scriptLine(text: String, expected: String) {
        #expect(Self.line(text) == expected)
    }

    @Test func oneCommandModeTakesTheNameWhenMoreFollows() {
        #expect(
            Self.render(Self.parser.command(fromArguments: ["tool-reply", "get_weather", "{\"a\": 1}"]))
                == #""tool-reply", "get_weather" | raw "{\"a\": 1}""#)
        #expect(
            Self.render(Self.parser.command(fromArguments: ["tool-reply", "7"])) == #""tool-reply" | raw "7""#
        )
    }
}
