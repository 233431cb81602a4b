import Foundation
import SophonCore
import SophonLogs
import SophonTestSupport
import Testing

@testable import SophonShell

#if canImport(Glibc)
    import Glibc
#endif

/// Private by default (issue 25, point 5): what holds prompts, answers or settings is `0600` in a
/// `0700` folder (``PrivateFiles``); the file a user names as output keeps the user's umask.
@Suite(.childSlots) struct PrivateFilesTests {
    /// The permission bits of `path` (`lstat`), or `nil` when nothing is there.
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// This process's umask, read from `/proc/self/status` (changing it to read it would race
    /// with the other tests).
    static func umask() throws -> mode_t {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let text = line.map { $0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces) }
        return try #require(text.flatMap { mode_t($0, radix: 8) })
    }

    @Test func aSessionThatLogsRunsAndAddsAServerLeavesSophonHomePrivate() async throws {
        let shell = try await GeminiShell()
        // SOPHON_HOME exists with 0755, as an older Sophon or `mkdir` left it: tightened.
        #expect(chmod(shell.home.path, 0o755) == 0)
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n")
        #expect(chmod(shell.home.appendingPathComponent("in.jsonl").path, 0o644) == 0)
        let fakeMCP = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/fake_mcp.py").path
        let outcome = try await shell.run([
            "-c", "ask hello", "-c", "run in.jsonl -o out.jsonl", "-c", "mcp add demo -- \(fakeMCP)",
        ])
        #expect(outcome.status == 0)
        let home = shell.home.path
        #expect(Self.mode(home) == 0o700)
        #expect(Self.mode(home + "/logs.db") == 0o600)
        #expect(Self.mode(home + "/mcp.json") == 0o600)
        // The input is the user's and stays as it was; the output the user named (`-o`) gets
        // the user's umask, like any Unix tool's output.
        #expect(Self.mode(home + "/in.jsonl") == 0o644)
        #expect(Self.mode(home + "/out.jsonl") == 0o666 & ~(try Self.umask()))
    }

    @Test func theLogDatabaseAndItsWALFilesAreCreatedPrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state/logs.db").path
        let store = try LogStore(path: path)
        _ = try store.append(
            LogEntry(
                time: Date(timeIntervalSince1970: 1_800_000_000), command: "ask", conversationID: nil,
                model: "gemini-3.8-flash", prompt: "secret prompt", answer: "secret answer",
                promptTokens: 1, outputTokens: 1, totalTokens: 2, durationMilliseconds: 1))
        // Checked while the store is open: SQLite removes `-wal` and `-shm` when it closes.
        #expect(Self.mode(folder.appendingPathComponent("state").path) == 0o700)
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        #expect(Self.mode(path + "-shm") == 0o600)
        withExtendedLifetime(store) {}
    }

    @Test func anExistingLogDatabaseAndHistoryAreTightened() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("private-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(chmod(folder.path, 0o755) == 0)
        let history = folder.appendingPathComponent("history").path
        #expect(FileManager.default.createFile(atPath: history, contents: Data("_HiStOrY_V2_\n".utf8)))
        #expect(chmod(history, 0o644) == 0)
        let database = folder.appendingPathComponent("logs.db").path
        _ = try LogStore(path: database)
        #expect(chmod(database, 0o644) == 0)
        _ = try LogStore(path: database)
        #expect(Self.mode(database) == 0o600)
        #expect(try HistoryFile(path: history).append("echo hi"))
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(history) == 0o600)
    }
}
