import Foundation
import Synchronization
import Testing

@testable import SophonShell

/// A file holding given bytes, opened for reading; removed on `close()`.
final class LineReaderInputFile {
    let descriptor: Int32
    private let path: String

    init(_ bytes: [UInt8]) throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("sophon-lines-\(UUID().uuidString)")
            .path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
    }

    convenience init(_ text: String) throws { try self.init(Array(text.utf8)) }

    func close() {
        _ = Foundation.close(descriptor)
        unlink(path)
    }

    /// Every result of reading until the end, the end included.
    static func readAll(_ reader: PlainLineReader, limit: Int = 100_000) -> [LineInput] {
        var results: [LineInput] = []
        while results.count < limit {
            let input = reader.readLine(prompt: "sophon> ")
            results.append(input)
            if input == .endOfInput { break }
        }
        return results
    }
}

@Suite struct LineReaderTests {
    static let cases: [(input: String, lines: [String])] = [
        ("", []),
        ("echo hi\n", ["echo hi"]),
        ("a\nb\n", ["a", "b"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\nlast without newline", ["a", "last without newline"]),
        ("crlf last\r", ["crlf last"]),
        ("\n\n", ["", ""]),
        ("inner\rcr\n", ["inner\rcr"]),
        ("café\n中文 👍🏽\r\n", ["café", "中文 👍🏽"]),
        ("tab\there\n", ["tab\there"]),
    ]

    @Test(arguments: cases)
    func splitsLines(input: String, lines: [String]) throws {
        let file = try LineReaderInputFile(input)
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(LineReaderInputFile.readAll(reader) == lines.map(LineInput.line) + [.endOfInput])
    }

    @Test func keepsReturningEndOfInputAfterTheEnd() throws {
        let file = try LineReaderInputFile("only\n")
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(reader.readLine(prompt: "") == .line("only"))
        #expect(reader.readLine(prompt: "") == .endOfInput)
        #expect(reader.readLine(prompt: "") == .endOfInput)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let file = try LineReaderInputFile([0x61, 0xFF, 0x62, 0x0A, 0xC3, 0x0A])
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(LineReaderInputFile.readAll(reader) == [.line("a\u{FFFD}b"), .line("\u{FFFD}"), .endOfInput])
    }

    @Test func readsTenThousandLinesAcrossBufferBoundaries() throws {
        let lines = (1...10_000).map { "echo line \($0) " + String(repeating: "x", count: $0 % 97) }
        let file = try LineReaderInputFile(lines.joined(separator: "\r\n") + "\r\n")
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(LineReaderInputFile.readAll(reader) == lines.map(LineInput.line) + [.endOfInput])
    }

    @Test func readsALineLongerThanTheBuffer() throws {
        let long = String(repeating: "abcdefghij", count: 20_000)
        let file = try LineReaderInputFile("short\n" + long + "\nafter")
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(
            LineReaderInputFile.readAll(reader) == [.line("short"), .line(long), .line("after"), .endOfInput])
    }

    @Test func readsFromAPipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let text = Array("one\ntwo\r\nthree".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        close(ends[1])
        let reader = PlainLineReader(descriptor: ends[0])
        #expect(
            LineReaderInputFile.readAll(reader) == [.line("one"), .line("two"), .line("three"), .endOfInput])
    }

    @Test func writesPromptsOnlyToItsPromptSink() throws {
        let file = try LineReaderInputFile("echo \"\"\"\nbody\n")
        defer { file.close() }
        let prompts = Mutex<[String]>([])
        let reader = PlainLineReader(
            descriptor: file.descriptor, promptSink: { text in prompts.withLock { $0.append(text) } })
        #expect(reader.readLine(prompt: "sophon> ") == .line("echo \"\"\""))
        #expect(reader.readLine(prompt: "   ...> ") == .line("body"))
        #expect(reader.readLine(prompt: "sophon> ") == .endOfInput)
        #expect(prompts.withLock { $0 } == ["sophon> ", "   ...> ", "sophon> "])
    }

    @Test func aSecretFromAPipeIsTheNextLineOfTheSameInput() throws {
        let file = try LineReaderInputFile("key set\nAIza-secret\necho after\n")
        defer { file.close() }
        let reader = PlainLineReader(descriptor: file.descriptor)
        #expect(reader.readLine(prompt: "sophon> ") == .line("key set"))
        #expect(reader.readSecret(prompt: "API key: ") == .line("AIza-secret"))
        #expect(reader.readLine(prompt: "sophon> ") == .line("echo after"))
    }

    @Test func recordsIntoItsHistoryFileOnly() throws {
        let folder = try HistoryTestFolder.make()
        defer { HistoryTestFolder.remove(folder) }
        let file = try LineReaderInputFile("")
        defer { file.close() }
        let history = HistoryFile(path: folder + "/history")
        try PlainLineReader(descriptor: file.descriptor, historyFile: history).record("echo kept")
        try PlainLineReader(descriptor: file.descriptor).record("echo dropped")
        #expect(try history.load() == ["echo kept"])
    }
}
