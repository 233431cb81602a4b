import Foundation
import Testing

@testable import SophonShell

/// `run`, `batch` and `embed-multi` read their input a line at a time: CRLF and a BOM are
/// dropped, bytes that are not UTF-8 are said, and a line past the limit is skipped, not read
/// whole (`run /dev/zero` grew without bound).
@Suite struct BulkLineReaderTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-lines-\(UUID().uuidString)"
        ).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test func linesCRLFABOMBadBytesAndATooLongLine() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        let bytes: [UInt8] =
            [0xEF, 0xBB, 0xBF] + Array("one\r\n\n".utf8) + [0xFF, 0x0A] + long + [0x0A]
            + Array("a\0b\nlast".utf8)
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try BulkLineReader(path: path, command: "run", limit: 64)
        var lines: [BulkLineReader.Line] = []
        while let line = reader.next() { lines.append(line) }
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(lines.map(\.text) == ["one", "", nil, nil, "a\0b", "last"])
        #expect(lines.map(\.isTooLong) == [false, false, false, true, false, false])
        #expect(lines.map(\.endedWithCRLF) == [true, false, false, false, false, false])
        #expect(lines.map(\.unreadable)[2...3] == ["not valid UTF-8", "longer than 64 MiB"])
    }

    /// A line exactly at the limit is read; the read goes on across buffer refills.
    @Test func aLineAtTheLimitAndLongLinesAcrossRefillsAreRead() throws {
        let line = String(repeating: "y", count: 200_000)
        let path = try Self.file(Array("\(line)\n\(line)".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try BulkLineReader(path: path, command: "run", limit: 200_000)
        #expect(reader.next()?.text == line)
        #expect(reader.next()?.text == line)
        #expect(reader.next() == nil)
    }
}
