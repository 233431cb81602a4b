import Testing

@testable import SophonShell

/// Sources read from bytes: lines that are not valid UTF-8 fail with their location.
@Suite struct LexerSourceTests {
    private func outcomes(_ bytes: [UInt8]) -> [String] {
        ShellParser().parse(ShellSource(name: "s.sophon", bytes: bytes)).map {
            switch $0.result {
            case .success(let command):
                "\($0.line): " + command.words.map(\.description).joined(separator: " ")
            case .failure(let error): "\(error.line):\(error.column): \(error.message)"
            }
        }
    }

    @Test func anInvalidLineFailsOnlyItsCommand() {
        let bytes = Array("echo ok\necho caf".utf8) + [0xE9] + Array(" x\necho after\n".utf8)
        #expect(outcomes(bytes) == ["1: echo ok", "2:9: line 2 is not valid UTF-8", "3: echo after"])
    }

    @Test func anInvalidCommentLineFailsToo() {
        let bytes = Array("echo a\n# ".utf8) + [0xFF] + Array("\necho b".utf8)
        #expect(outcomes(bytes) == ["1: echo a", "2:3: line 2 is not valid UTF-8", "3: echo b"])
    }

    @Test func anInvalidLineInsideAMultiLineCommandFailsThatCommand() {
        let bytes = Array("echo \"a\n".utf8) + [0xC3, 0x28] + Array("\"\necho b".utf8)
        #expect(outcomes(bytes) == ["2:1: line 2 is not valid UTF-8", "3: echo b"])
    }

    @Test func byteOrderMarkIsNotCountedInColumns() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("echo ".utf8) + [0xFF]
        #expect(outcomes(bytes) == ["1:6: line 1 is not valid UTF-8"])
    }

    @Test func validBytesReadLikeText() {
        let text = "\u{FEFF}echo é\r\necho 日本\r\n"
        #expect(ShellSource(name: "x", bytes: Array(text.utf8)) == ShellSource(name: "x", text: text))
        #expect(ShellSource(name: "x", bytes: Array(text.utf8)).invalidLines.isEmpty)
    }
}
