import Foundation
import SophonTestSupport
import Testing

/// Issue 25 point 12: a plugin stuck in a call does not outlive a `sophon` killed with SIGKILL
/// (no handler runs then: the kernel kills the child, see `ChildSpawner`).
@Suite(.childSlots) struct ChildLifetimeTests {
    static let plugin = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/Plugins/sophon-plugin-faulty")

    @Test func aPluginStuckInACallDiesWithASophonKilledBySIGKILL() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-children-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.environment = [
            "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
            "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9",
        ]
        process.currentDirectoryURL = home
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        input.fileHandleForWriting.writeAllRetryingInterrupts(
            Data("plugin load \(Self.plugin.path)\nfaulty-hang\n".utf8))
        try input.fileHandleForWriting.close()  // A script on stdin runs once it is read whole.
        // The event: the plugin said on stderr that it sleeps (it is inside the call).
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("sleeping for an hour") {
            let chunk = await OffPool.run { errors.fileHandleForReading.readChunkRetryingInterrupts() }
            try #require(!chunk.isEmpty, "sophon ended before the plugin was in its call")
            said += chunk
        }
        let children = Self.children(of: process.processIdentifier)
        try #require(children.count == 1)
        kill(process.processIdentifier, SIGKILL)
        await OffPool.run { process.waitUntilExit() }
        let started = Date()
        while Self.isAlive(children[0]) {
            try #require(Date().timeIntervalSince(started) < 60, "the plugin outlived sophon")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `timeout 60 sophon test DIR` (SIGTERM to the runner) leaves no test script running.
    @Test func aTestScriptDiesWithATestRunnerEndedBySIGTERM() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-children-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try "sleep 1h\n".write(
            to: home.appendingPathComponent("hang.sophon"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.arguments = ["test", home.path]
        process.environment = ["PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path]
        process.currentDirectoryURL = home
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        // The event: the runner has started the script's child.
        let started = Date()
        var children: [Int32] = []
        while children.isEmpty {
            try #require(Date().timeIntervalSince(started) < 60, "no child started")
            try await Task.sleep(for: .milliseconds(20))
            children = Self.children(of: process.processIdentifier)
        }
        kill(process.processIdentifier, SIGTERM)
        await OffPool.run { process.waitUntilExit() }
        let ended = Date()
        while Self.isAlive(children[0]) {
            try #require(Date().timeIntervalSince(ended) < 60, "the test script outlived its runner")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The processes whose parent is `pid` (from `/proc/*/stat`).
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { candidate in
            guard let stat = Self.stat(candidate) else { return false }
            return stat.parent == pid
        }
    }

    /// Whether `pid` still runs (a zombie waiting for its new parent to reap it has ended).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = Self.stat(pid) else { return false }
        return stat.state != "Z" && stat.state != "X"
    }

    /// The state letter and parent id in `/proc/PID/stat` (after the `)` that ends the name).
    static func stat(_ pid: Int32) -> (state: String, parent: Int32)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (String(fields[0]), parent)
    }
}
