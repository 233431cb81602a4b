import CEdit
import Foundation
import Testing

@testable import SophonShell

/// Checks the history file format against libedit itself: what HistoryFile writes,
/// libedit's `H_LOAD` reads back entry for entry, and what libedit's `H_SAVE` writes is
/// byte for byte what HistoryFile writes.
@Suite struct HistoryLibeditTests {
    /// The encoding table's entries, without the blank one and the one holding NUL (a C
    /// string cannot carry it into libedit).
    static let entries = HistoryEncodingTests.encodings.map(\.entry)
        .filter { HistoryFile.isStorable($0) && !$0.contains("\u{0}") }

    init() {
        _ = cedit_prepare_utf8_locale()
    }

    @Test func libeditLoadsWhatHistoryFileWrites() throws {
        let folder = try HistoryTestFolder.make()
        defer { HistoryTestFolder.remove(folder) }
        let file = HistoryFile(path: folder + "/history")
        for entry in Self.entries { try file.append(entry) }

        let history = try #require(cedit_history_init(100))
        defer { history_end(history) }
        #expect(cedit_history_load(history, file.path) == Int32(Self.entries.count))
        #expect(Self.allEntries(of: history) == Self.entries)
    }

    @Test func historyFileWritesWhatLibeditSaves() throws {
        let folder = try HistoryTestFolder.make()
        defer { HistoryTestFolder.remove(folder) }
        // libedit writes a single meta byte for the C1 controls (not UTF-8): leave them out.
        let entries = Self.entries.filter { !$0.unicodeScalars.contains { (0x80..<0xA0).contains($0.value) } }
        let history = try #require(cedit_history_init(100))
        defer { history_end(history) }
        for entry in entries { #expect(cedit_history_enter(history, entry) == 0) }
        #expect(cedit_history_save(history, folder + "/saved") == Int32(entries.count))

        let file = HistoryFile(path: folder + "/ours")
        for entry in entries { try file.append(entry) }
        let saved = try #require(FileManager.default.contents(atPath: folder + "/saved"))
        let ours = try #require(FileManager.default.contents(atPath: folder + "/ours"))
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: saved, as: UTF8.self))
        #expect(ours == saved)
        #expect(try HistoryFile(path: folder + "/saved").load() == entries)
    }

    private static func allEntries(of history: OpaquePointer) -> [String] {
        var result: [String] = []
        var entry = cedit_history_oldest(history)
        while let current = entry {
            result.append(String(cString: current))
            entry = cedit_history_newer(history)
        }
        return result
    }
}
