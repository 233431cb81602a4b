import Foundation
import Testing

@testable import SophonShell

/// `embed-multi`'s CSV rows (docs/embeddings.md, RFC 4180): a quoted field keeps the line
/// breaks it holds as the file writes them, `\r\n` or `\n`, so the text embedded (and its
/// content hash) is the text of the file.
@Suite struct EmbeddingInputReaderTests {
    @Test func aQuotedFieldKeepsItsLineBreaksAsWritten() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-rows-\(UUID().uuidString).csv"
        ).path
        let csv = "id,text,tag\r\n1,\"line one\r\nline two\",x\r\n2,\"a\nb\r\nc\",y\n3,plain,z\r\n"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(csv.utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try EmbeddingInputReader(path: path, shown: "rows.csv", idField: "id", textField: "text")
        var rows: [EmbeddingInputReader.Row] = []
        while let row = try reader.next() { rows.append(row) }
        #expect(rows.map(\.line) == [2, 4, 7])
        #expect(rows.map(\.id) == ["1", "2", "3"])
        #expect(rows.map(\.text) == ["line one\r\nline two", "a\nb\r\nc", "plain"])
        #expect(rows.map(\.metadata) == [#"{"tag":"x"}"#, #"{"tag":"y"}"#, #"{"tag":"z"}"#])
    }
}
