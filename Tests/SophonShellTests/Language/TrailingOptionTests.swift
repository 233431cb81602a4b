import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonShell

/// A prompt-like command's options lead (PRODUCT §4); one of its declared options typed after
/// the text (`ask hi --dry-run`) is refused, never sent as prompt text, unless quotes or `--`
/// say the text is all text.
@Suite(.childSlots) struct TrailingOptionTests {
    static let parser = ShellParser(
        grammar: PluginRegistry.standard().grammar, parseJSON: ShellParser.strictJSON)

    static let lines: [(String, String?)] = [
        ("ask hi --dry-run", "--dry-run"),
        ("ask what is this --json", "--json"),
        ("ask hi --model gemini-2.5-pro", "--model gemini-2.5-pro"),
        ("ask hi --model=x", "--model=x"),
        ("chat go on --continue", "--continue"),
        ("ask hi $x --no-schema", "--no-schema"),
        // Text, not an option: quoted, after `--`, glued to an expansion, not last, undeclared.
        ("ask \"hi --dry-run\"", nil),
        ("ask -- explain git push --dry-run", nil),
        ("ask hi $x--dry-run", nil),
        ("ask what does --dry-run do", nil),
        ("ask explain rm --force", nil),
        ("ask --dry-run hi", nil),
        ("tool shw --json", nil),
    ]

    @Test(arguments: lines)
    func aScriptLineEndingWithAnOption(line: String, option: String?) throws {
        let parsed = try #require(Self.parser.parse(ShellSource(name: "t", text: line)).first)
        guard case .success(let command) = parsed.result else {
            Issue.record("\(line) did not parse")
            return
        }
        #expect(command.trailingOption == option)
    }

    static let argumentLists: [([String], String?)] = [
        (["ask", "hi", "--dry-run"], "--dry-run"),
        (["ask", "hi there", "--model", "x"], "--model x"),
        (["ask", "explain git push --dry-run"], nil),
        (["ask", "--", "hi", "--dry-run"], nil),
        (["ask", "--dry-run"], nil),
    ]

    @Test(arguments: argumentLists)
    func oneCommandArgumentsEndingWithAnOption(arguments: [String], option: String?) {
        #expect(Self.parser.command(fromArguments: arguments)?.trailingOption == option)
    }

    @Test func nothingIsSentAndTheMessageSaysWhereOptionsGo() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "ask hi --dry-run", "-c", "compare --models gemini-3.8-flash hi --json", "-c",
            "ask -- hi --dry-run",
        ])
        #expect(
            outcome.stderr
                == "-c:1:1: error: ask: option '--dry-run' after the text; options go before it "
                + "(ask --dry-run ...); to send '--dry-run' as text, quote the text or put -- before it\n"
                + "-c:2:1: error: compare: option '--json' after the text; options go before it "
                + "(compare --json ...); to send '--json' as text, quote the text or put -- before it\n")
        #expect(outcome.stdout == "Hello from the fake Gemini server.\n")
        #expect(outcome.status == 1)
        // Only the line after `--` was sent, its text as typed.
        let bodies = try await shell.server.requests().map(\.body)
        #expect(bodies.count == 1)
        #expect(bodies.first?["contents"]?[0]?["parts"]?[0]?["text"] == .string("hi --dry-run"))

        let one = try await shell.run(["ask", "hi", "--dry-run"])
        #expect(
            one
                == .init(
                    stdout: "",
                    stderr: "error: ask: option '--dry-run' after the text; options go before it "
                        + "(ask --dry-run ...); to send '--dry-run' as text, quote the text or put -- before it\n",
                    status: 1))
        #expect(try await shell.server.requests().count == 1)
    }
}
