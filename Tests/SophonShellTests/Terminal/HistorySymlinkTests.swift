import Foundation
import Testing

@testable import SophonShell

/// A history file reached through a symlink stays a symlink when it is compacted: the one
/// writer replaces the target (docs/files.md, "Atomic writes").
@Suite struct HistorySymlinkTests {
    @Test func compactionReplacesTheTargetAndKeepsTheLink() throws {
        let folder = try HistoryTestFolder.make()
        defer { HistoryTestFolder.remove(folder) }
        let target = folder + "/real-history"
        let link = folder + "/history"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real-history")
        let history = HistoryFile(path: link, limit: 2, slack: 0)
        for entry in ["one", "two", "three", "four"] { try history.append(entry) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real-history")
        #expect(HistoryTestFolder.text(target) == "_HiStOrY_V2_\nthree\nfour\n")
        #expect(try history.load() == ["three", "four"])
    }
}
