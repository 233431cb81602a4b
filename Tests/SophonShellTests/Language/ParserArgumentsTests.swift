import SophonCore
import Testing

@testable import SophonShell

/// One-command mode: arguments from the calling shell are literal words.
@Suite struct ParserArgumentsTests {
    private func render(_ arguments: [String]) -> String {
        guard let command = LanguageTesting.parser.command(fromArguments: arguments) else { return "nil" }
        var text = command.words.map(LanguageTesting.render).joined(separator: ", ")
        if let raw = command.rawArgument { text += " | raw " + LanguageTesting.render(raw) }
        if let assignment = command.assignment, case .json(let value) = assignment.value {
            text += " | let \(assignment.name) = \(value.compactText)"
        }
        return text
    }

    static let cases: [([String], String)] = [
        ([], "nil"),
        (["echo", "$x", "a b"], #""echo", "$x", "a b""#),
        (["ask", "What's in C#?"], #""ask" | raw "What's in C#?""#),
        (["ask", "--model", "x", "hi", "$there"], #""ask", "--model", "x" | raw "hi $there""#),
        (["ask", "--", "--flag", "text"], #""ask" | raw "--flag text""#),
        (["extract"], #""extract""#),
        (["extract", "@reply.txt"], #""extract", "@reply.txt""#),
        (["schema", "show", "gemini"], #""schema", "show", "gemini""#),
        (["let", "n", "=", "3"], #""let", "n", "=" | let n = 3"#),
    ]

    @Test(arguments: cases)
    func arguments(arguments: [String], expected: String) {
        #expect(render(arguments) == expected)
    }

    @Test func letWithTextStoresTheJoinedWords() throws {
        let command = LanguageTesting.parser.command(fromArguments: ["let", "who", "=", "Ada", "$x"])
        let value = try command?.assignment?.evaluate(
            expander: LanguageTesting.expander([:]), parseJSON: ShellParser.strictJSON)
        #expect(value == .string("Ada $x"))
    }
}

extension ParserArgumentsTests {
    @Test func expectValidWorksFromArguments() throws {
        let command = LanguageTesting.parser.command(fromArguments: ["expect", "valid"])
        #expect(try ExpectExpression.parse(command?.arguments ?? []) == .valid)
    }
}
