import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SophonShell

/// A fresh folder under the temporary directory for one test.
enum HistoryTestFolder {
    static func make() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("sophon-history-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func write(_ text: String, to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }
}

@Suite struct HistoryFileTests {
    let folder: String
    let path: String

    init() throws {
        folder = try HistoryTestFolder.make()
        path = folder + "/history"
    }

    @Test func appendWritesTheHeaderThenOneEncodedLinePerEntry() throws {
        let file = HistoryFile(path: path)
        #expect(try file.append("echo hi"))
        #expect(try file.append("let x = 1"))
        #expect(HistoryTestFolder.text(path) == "_HiStOrY_V2_\necho\\040hi\nlet\\040x\\040=\\0401\n")
        #expect(try file.load() == ["echo hi", "let x = 1"])
        HistoryTestFolder.remove(folder)
    }

    @Test func aMultiLineCommandIsOneEntry() throws {
        let file = HistoryFile(path: path)
        let block = "ask \"\"\"\nfirst line\n\"\"\""
        try file.append(block)
        #expect(
            HistoryTestFolder.text(path) == "_HiStOrY_V2_\nask\\040\"\"\"\\012first\\040line\\012\"\"\"\n")
        #expect(try HistoryFile(path: path).load() == [block])
        HistoryTestFolder.remove(folder)
    }

    @Test func aMissingFileLoadsEmptyAndIsNotCreated() throws {
        let file = HistoryFile(path: folder + "/state/sophon/history")
        #expect(try file.load() == [])
        #expect(!FileManager.default.fileExists(atPath: folder + "/state"))
        HistoryTestFolder.remove(folder)
    }

    @Test func createsMissingFoldersWithMode0700AndTheFileWithMode0600() throws {
        let file = HistoryFile(path: folder + "/state/sophon/history")
        try file.append("echo hi")
        #expect(Self.mode(folder + "/state") == 0o700)
        #expect(Self.mode(folder + "/state/sophon") == 0o700)
        #expect(Self.mode(file.path) == 0o600)
        HistoryTestFolder.remove(folder)
    }

    @Test(arguments: ["", "   ", "\n", " echo secret", "  key set"])
    func skipsBlankEntriesAndEntriesStartingWithASpace(entry: String) throws {
        let file = HistoryFile(path: path)
        try file.append("first")
        #expect(try file.append(entry) == false)
        #expect(try file.load() == ["first"])
        HistoryTestFolder.remove(folder)
    }

    @Test func skipsADuplicateOfTheNewestEntryEvenFromAnotherSession() throws {
        let mine = HistoryFile(path: path)
        let theirs = HistoryFile(path: path)
        #expect(try mine.append("echo a b"))
        #expect(try theirs.append("echo a b") == false)
        #expect(try mine.append("echo a") == true)
        #expect(try theirs.append("echo a b") == true)
        #expect(try mine.load() == ["echo a b", "echo a", "echo a b"])
        HistoryTestFolder.remove(folder)
    }

    @Test func aLineCutOffByACrashStaysOnItsOwnLine() throws {
        HistoryTestFolder.write("_HiStOrY_V2_\nabc\\04", to: path)
        let file = HistoryFile(path: path)
        #expect(try file.load() == ["abc\u{4}"])
        try file.append("next")
        #expect(HistoryTestFolder.text(path) == "_HiStOrY_V2_\nabc\\04\nnext\n")
        HistoryTestFolder.remove(folder)
    }

    @Test func emptyLinesInTheFileAreSkipped() throws {
        HistoryTestFolder.write("_HiStOrY_V2_\n\none\n\ntwo\n", to: path)
        #expect(try HistoryFile(path: path).load() == ["one", "two"])
        HistoryTestFolder.remove(folder)
    }

    @Test func aFileThatIsNotAHistoryFileIsNeitherAppendedToNorCompacted() throws {
        let original = "my notes\n" + (1...1300).map { "line \($0)\n" }.joined()
        HistoryTestFolder.write(original, to: path)
        let file = HistoryFile(path: path)
        #expect(throws: HistoryFileError.notAHistoryFile(path: path)) { try file.load() }
        #expect(throws: HistoryFileError.notAHistoryFile(path: path)) { try file.append("echo hi") }
        try file.compact()
        #expect(HistoryTestFolder.text(path) == original)
        HistoryTestFolder.remove(folder)
    }

    @Test func anUnreadablePathThrowsAndIsLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let file = HistoryFile(path: path)
        #expect(throws: HistoryFileError.unreadable(path: path, code: EISDIR)) { try file.load() }
        #expect(throws: HistoryFileError.unwritable(path: path, code: EISDIR)) { try file.append("echo hi") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == [])
        HistoryTestFolder.remove(folder)
    }

    @Test func errorsNameTheFileAndTheReason() {
        #expect(
            HistoryFileError.unreadable(path: "/x/history", code: EISDIR).description
                == "cannot read history file /x/history: Is a directory")
        #expect(
            HistoryFileError.notAHistoryFile(path: "/x/h").description
                == "/x/h is not a history file (its first line is not _HiStOrY_V2_); it was left unchanged")
    }

    @Test func compactsToTheNewestLimitEntriesPastLimitPlusSlack() throws {
        let file = HistoryFile(path: path, limit: 5, slack: 2)
        for number in 1...7 { try file.append("e\(number)") }
        #expect(try file.load() == (1...7).map { "e\($0)" })
        try file.append("e8")
        #expect(HistoryTestFolder.text(path) == "_HiStOrY_V2_\ne4\ne5\ne6\ne7\ne8\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history"])
        #expect(Self.mode(path) == 0o600)
        HistoryTestFolder.remove(folder)
    }

    @Test func compactionKeepsTheNewestThousandInOrder() throws {
        let file = HistoryFile(path: path)
        for number in 1...1200 { try file.append("echo \(number)") }
        #expect(try HistoryFile(path: path).load().count == 1200)
        try file.append("echo 1201")
        #expect(try HistoryFile(path: path).load() == (202...1201).map { "echo \($0)" })
        HistoryTestFolder.remove(folder)
    }

    @Test func compactionCopiesLinesByteForByte() throws {
        let lines = ["plain", "caf\\M-C\\M-)", "a\\^Ib", "x\\040y"]
        HistoryTestFolder.write("_HiStOrY_V2_\n" + lines.map { $0 + "\n" }.joined(), to: path)
        let file = HistoryFile(path: path, limit: 4, slack: 0)
        try file.append("new")
        #expect(HistoryTestFolder.text(path) == "_HiStOrY_V2_\ncaf\\M-C\\M-)\na\\^Ib\nx\\040y\nnew\n")
        #expect(try file.load() == ["café", "a\tb", "x y", "new"])
        HistoryTestFolder.remove(folder)
    }

    @Test func twoSessionsAppendingAtOnceLoseNothing() throws {
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { session in
            let file = HistoryFile(path: path)
            for number in 1...300 {
                do { try file.append("s\(session) \(number)") } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let entries = try HistoryFile(path: path).load()
        #expect(entries.count == 600)
        for session in 0..<2 {
            #expect(entries.filter { $0.hasPrefix("s\(session) ") } == (1...300).map { "s\(session) \($0)" })
        }
        HistoryTestFolder.remove(folder)
    }

    @Test func twoSessionsCompactingAtOnceKeepANewestSuffixOfEach() throws {
        DispatchQueue.concurrentPerform(iterations: 2) { session in
            let file = HistoryFile(path: path, limit: 50, slack: 10)
            for number in 1...200 { _ = try? file.append("s\(session) \(number)") }
        }
        let entries = try HistoryFile(path: path).load()
        #expect((50...60).contains(entries.count))
        #expect(Set(entries).count == entries.count)
        for session in 0..<2 {
            let mine = entries.filter { $0.hasPrefix("s\(session) ") }
            let expected = (1...200).suffix(mine.count).map { "s\(session) \($0)" }
            #expect(mine == expected)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["history"])
        HistoryTestFolder.remove(folder)
    }

    private static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode) & 0o777
    }
}

@Suite struct HistoryFileStaleTemporaryTests {
    @Test func compactionRemovesTheTemporaryOfAKilledCompaction() throws {
        let folder = try HistoryTestFolder.make()
        defer { HistoryTestFolder.remove(folder) }
        let path = folder + "/history"
        HistoryTestFolder.write("_HiStOrY_V2_\npartial copy\n", to: path + ".tmp-999999")
        HistoryTestFolder.write("unrelated\n", to: folder + "/history-notes")
        let file = HistoryFile(path: path, limit: 2, slack: 0)
        for number in 1...3 { try file.append("e\(number)") }
        #expect(HistoryTestFolder.text(path) == "_HiStOrY_V2_\ne2\ne3\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "history", "history-notes",
            ])
    }
}
