import Testing

@testable import SophonShell

/// Generated inputs full of quotes, backslashes and braces: parsing always ends, and every
/// error points inside the input.
@Suite struct ParserRobustnessTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE5_E4B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            value ^= value >> 31
            return Int(value % UInt64(bound))
        }
    }

    static let pieces = [
        "\"", "'", "\\", "$", "{", "}", "[", "]", ".", "#", "\n", " ", "\t", "a", "1", "é", "日",
        "\"\"\"", "${a", "${a.b[0]}", "$x", "\\u{41}", "\\q", "let x = ", "ask ", "--model ", "\r\n",
        "expect ", "=", "\u{301}", "  \"\"\"\n",
    ]

    @Test func generatedInputsParseWithErrorsInsideTheInput() {
        var generator = Generator(state: 2026)
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<generator.next(24) { text += Self.pieces[generator.next(Self.pieces.count)] }
            let source = ShellSource(name: "fuzz", text: text)
            for command in LanguageTesting.parser.parse(source) {
                #expect((1...source.lineCount).contains(command.line), "\(text.debugDescription)")
                guard case .failure(let error) = command.result else { continue }
                let lineLength = source.lineText(error.line).count
                #expect((1...source.lineCount).contains(error.line), "\(text.debugDescription)")
                #expect((1...(lineLength + 1)).contains(error.column), "\(text.debugDescription)")
                // LINE is the command's first physical line; the caret line may be a later one.
                #expect(error.commandLine.map { $0 == command.line && $0 <= error.line } ?? true)
                #expect(
                    error.rendered(withLocation: true).hasPrefix(
                        "fuzz:\(error.commandLine ?? error.line):\(error.column): error: "))
            }
            _ = LanguageTesting.parser.inputStatus(of: text)
        }
    }
}
