import Testing

@testable import SophonShell

/// The rendering of errors: `FILE:LINE:COL: error: MESSAGE`, the line, a caret under the column.
@Suite struct ParserDiagnosticsTests {
    private func firstError(_ text: String, name: String = "examples/tour.sophon") -> ShellSyntaxError? {
        for command in LanguageTesting.parse(text, name: name) {
            if case .failure(let error) = command.result { return error }
        }
        return nil
    }

    @Test func scriptErrorShowsLocationLineAndCaret() {
        let error = firstError("echo ok\necho \"a\\qb\"")
        #expect(
            error?.rendered(withLocation: true)
                == """
                examples/tour.sophon:2:8: error: invalid escape '\\q' in double quotes; the escapes are \
                \\" \\\\ \\n \\t \\$ \\u{XXXX}
                echo "a\\qb"
                       ^
                """)
        #expect(error?.description == error?.rendered(withLocation: true))
    }

    @Test func anErrorOnAContinuationLineNamesTheCommandsFirstLine() {
        // docs/language.md: LINE is the first physical line of the command; the caret goes under
        // the column of the line that holds the error.
        let error = firstError("echo one\necho two \\\n  ${unclosed\necho three\n", name: "x.sophon")
        #expect(
            error?.rendered(withLocation: true)
                == """
                x.sophon:2:3: error: unterminated '${': expected '}'
                  ${unclosed
                  ^
                """)
        #expect(error.map { ($0.line, $0.commandLine) } ?? (0, nil) == (3, 2))
    }

    @Test func interactiveErrorHasNoLocation() {
        let error = firstError("echo ${}", name: "<input>")
        #expect(
            error?.rendered(withLocation: false)
                == """
                error: empty variable reference '${}'
                echo ${}
                     ^
                """)
    }

    @Test func tabsInTheLineStayTabsInTheCaretPadding() {
        let error = firstError("\techo\t\"\\q\"", name: "-c:1")
        #expect(error.map { ($0.line, $0.column) } ?? (0, 0) == (1, 8))
        #expect(
            error?.rendered(withLocation: true).split(separator: "\n", omittingEmptySubsequences: false)
                .dropFirst()
                == ["\techo\t\"\\q\"", "\t    \t ^"])
    }

    @Test func wideCharactersPadWithTwoSpaces() {
        let error = firstError("echo \"日本\\q\"", name: "<stdin>")
        #expect(error?.rendered(withLocation: true).hasPrefix("<stdin>:1:9: error: ") == true)
        #expect(
            error?.rendered(withLocation: true).split(separator: "\n").last
                == Substring(String(repeating: " ", count: 10) + "^"))
    }

    @Test func caretPastTheEndOfTheLine() {
        #expect(ShellSyntaxError.caretLine(under: 5, of: "ab") == "    ^")
        #expect(ShellSyntaxError.caretLine(under: 1, of: "") == "^")
    }

    @Test func runtimeErrorsHaveALineButNoColumn() {
        #expect(
            ShellDiagnostic.rendered("undefined variable 'x'", sourceName: "examples/tour.sophon", line: 12)
                == "examples/tour.sophon:12: error: undefined variable 'x'")
        #expect(
            ShellDiagnostic.rendered("undefined variable 'x'", sourceName: nil, line: 12)
                == "error: undefined variable 'x'")
    }
}
