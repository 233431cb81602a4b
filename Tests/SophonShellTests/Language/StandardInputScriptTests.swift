import Foundation
import SophonCore
import SophonTestSupport
import Testing

@testable import SophonShell

/// A script read from a pipe as it arrives (``StandardInputScript``) gives exactly the commands,
/// lines, errors and carets that parsing the whole input at once gives, however its bytes are
/// cut into writes.
struct StandardInputScriptTests {
    /// Scripts with every construct that spans lines, errors, and the byte-level cases of a
    /// script file (BOM, CRLF, a line that is not UTF-8).
    static let scripts: [[UInt8]] = [
        Array("echo a\necho b\n".utf8),
        Array("echo one \\\n  two\n# comment\n\necho \"x\ny\"\necho 'p\nq'\n".utf8),
        Array("let t = \"\"\"\n  block\n  text\n  \"\"\"\necho $t\necho last".utf8),
        Array("\u{FEFF}echo bom\r\necho crlf\r\necho \"bad\\q\"\n".utf8),
        Array("echo ok\necho ".utf8) + [0xFF, 0x0A] + Array("echo \"é\\q\"\n\u{FEFF}echo mid\n".utf8),
        Array("echo \"unterminated\necho never\n".utf8),
        Array("echo a \\\n".utf8),
        Array("ask \"\"\"\nopen block".utf8),
        // An open block past 64 KiB, parsed again only when it has doubled or its writer pauses.
        Array(
            ("echo \"\"\"\n" + String(repeating: "a line of a long block\n", count: 6000)
                + "\"\"\"\necho end\n").utf8),
    ]

    /// The commands of `pieces` written one write each into a pipe by another thread, read by
    /// ``StandardInputScript/nextCommands()`` until the end.
    static func streamed(_ pieces: [[UInt8]]) async -> [ParsedCommand] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        let writer = Thread {
            for piece in pieces {
                piece.withUnsafeBytes { try? FileDescriptorWriter.writeAll(writing, $0) }
            }
            close(writing)
        }
        writer.start()
        let script = StandardInputScript(descriptor: reading, parser: LanguageTesting.parser)
        let commands = await OffPool.run {
            var all: [ParsedCommand] = []
            while case let batch = script.nextCommands(), !batch.isEmpty { all += batch }
            return all
        }
        close(reading)
        #expect(script.failure == nil)
        return commands
    }

    @Test(arguments: scripts)
    func piecesGiveTheWholeParse(script: [UInt8]) async {
        let whole = LanguageTesting.parser.parse(ShellSource(name: "<stdin>", bytes: script))
        #expect(await Self.streamed([script]) == whole)
        var lines: [[UInt8]] = [[]]
        for byte in script {
            lines[lines.count - 1].append(byte)
            if byte == 0x0A { lines.append([]) }
        }
        #expect(await Self.streamed(lines) == whole)
        #expect(await Self.streamed(script.map { [$0] }) == whole)
    }

    /// A NUL byte among the first 8 KiB stops the script: nothing after it is handed out.
    @Test func aNulByteInTheFirst8KiBStopsTheScript() async {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array("echo a\necho b\u{0}\necho c\n".utf8)
        bytes.withUnsafeBytes { try? FileDescriptorWriter.writeAll(ends[1], $0) }
        close(ends[1])
        let script = StandardInputScript(descriptor: ends[0], parser: LanguageTesting.parser)
        let (first, second) = await OffPool.run { (script.nextCommands(), script.nextCommands()) }
        close(ends[0])
        #expect(first == [])
        #expect(second == [])
        #expect(script.failure == .binary)
    }
}
