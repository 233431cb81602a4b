import Foundation
import SophonCore
import SophonLogs
import Testing

/// The SQLite log store (docs/logs.md): schema version and WAL, append and read back, FTS5
/// search, conversations for `--continue`, concurrent writers, a corrupt file moved aside.
@Suite struct LogStoreTests {
    static func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logstore-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("logs.db").path
    }

    static func entry(_ prompt: String, answer: String?, conversation: String? = nil) -> LogEntry {
        LogEntry(
            time: Date(timeIntervalSince1970: 1_800_000_000.25),
            command: conversation == nil ? "ask" : "chat",
            conversationID: conversation, model: "gemini-3.8-flash", prompt: prompt, answer: answer,
            promptTokens: 3, outputTokens: 4, totalTokens: 7, durationMilliseconds: 12)
    }

    @Test func newDatabaseHasTheSchemaVersionAndWAL() throws {
        let store = try LogStore(path: Self.temporaryPath())
        #expect(try store.version() == 2)
        #expect(try store.journalMode() == "wal")
        #expect(try store.count() == 0)
    }

    @Test func appendedEntryReadsBackExactly() throws {
        let store = try LogStore(path: Self.temporaryPath())
        var entry = Self.entry("hello", answer: "hi there")
        entry.schema = #"{"type":"OBJECT"}"#
        entry.media = #"[{"mimeType":"image/png","sha256":"ab","bytes":3}]"#
        let id = try store.append(entry)
        #expect(id == 1)
        entry.id = 1
        #expect(try store.entry(id: 1) == entry)
        #expect(try store.recent(limit: 5) == [entry])
        #expect(throws: LogStoreError.noSuchEntry(id: 2)) { try store.entry(id: 2) }
        var odd = Self.entry("nul\u{0}inside · 漢字 🙂", answer: "a\u{0}b")
        odd.id = try store.append(odd)
        #expect(try store.entry(id: 2) == odd)
    }

    @Test func costReadsBackAndUnknownStaysUnknown() throws {
        let store = try LogStore(path: Self.temporaryPath())
        var priced = Self.entry("hello", answer: "hi")
        priced.cost = 0.0000725
        priced.id = try store.append(priced)
        var unpriced = Self.entry("hello", answer: "hi")
        unpriced.id = try store.append(unpriced)
        #expect(try store.recent(limit: 2) == [priced, unpriced])
        #expect(try store.entry(id: 2).cost == nil)
    }

    @Test func searchFindsAWordOfAnAnswer() throws {
        let store = try LogStore(path: Self.temporaryPath())
        try store.append(Self.entry("first", answer: "plain words"))
        try store.append(Self.entry("second", answer: "a zebra crossing"))
        try store.append(Self.entry("third \"quoted\"", answer: nil))
        #expect(try store.search("zebra").map(\.id) == [2])
        #expect(try store.search("ZEBRA crossing").map(\.id) == [2])
        #expect(try store.search("\"quoted\"").map(\.id) == [3])
        #expect(try store.search("giraffe").isEmpty)
        #expect(try store.search("   ").isEmpty)
    }

    @Test func lastConversationIsTheNewestWithoutFailedTurns() throws {
        let store = try LogStore(path: Self.temporaryPath())
        try store.append(Self.entry("a1", answer: "x", conversation: "A"))
        try store.append(Self.entry("b1", answer: "y", conversation: "B"))
        var failed = Self.entry("b2", answer: nil, conversation: "B")
        failed.error = "rateLimited: slow down"
        try store.append(failed)
        try store.append(Self.entry("b3", answer: "z", conversation: "B"))
        try store.append(Self.entry("lone ask", answer: "w"))
        #expect(try store.lastConversation().map(\.prompt) == ["b1", "b3"])
    }

    @Test func twoConnectionsWritingAtOnceLoseNothing() async throws {
        let path = try Self.temporaryPath()
        _ = try LogStore(path: path)
        await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    let store = try LogStore(path: path)
                    for index in 0..<50 { try store.append(Self.entry("w\(writer)-\(index)", answer: "ok")) }
                }
            }
        }
        let prompts = try LogStore(path: path).recent(limit: 1000).map(\.prompt).sorted()
        #expect(prompts == (0..<2).flatMap { writer in (0..<50).map { "w\(writer)-\($0)" } }.sorted())
    }

    @Test func corruptFileIsMovedAsideUnchanged() throws {
        let path = try Self.temporaryPath()
        let garbage = Data(String(repeating: "not a database\n", count: 20).utf8)
        try garbage.write(to: URL(fileURLWithPath: path))
        let store = try LogStore(path: path)
        let moved = try #require(store.movedAside)
        #expect(moved.hasPrefix(path + ".corrupt-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: moved)) == garbage)
        #expect(try store.count() == 0)
        #expect(try store.version() == 2)
    }

    @Test func sha256OfKnownInputs() {
        #expect(
            SHA256.hexDigest(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(
            SHA256.hexDigest(Data(String(repeating: "a", count: 1000).utf8))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
