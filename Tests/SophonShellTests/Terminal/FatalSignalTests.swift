import Foundation
import SophonTestSupport
import Testing

/// Issue 25 point 11: a fatal signal sent from outside ends `sophon` by that signal (the
/// Swift runtime's crash reporter caught it, returned, and the process went on to exit 0).
@Suite(.childSlots) struct FatalSignalTests {
    @Test(arguments: [SIGSEGV, SIGABRT, SIGBUS])
    func aFatalSignalFromOutsideEndsSophonByThatSignal(_ signo: Int32) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.environment = [
            "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
            "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9", "SWIFT_BACKTRACE": "enable=yes,interactive=no",
        ]
        process.currentDirectoryURL = home
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { try? input.fileHandleForWriting.close() }
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        // The event: a thread of sophon is blocked reading its standard input (the script).
        let started = Date()
        while !Self.readsStandardInput(process.processIdentifier) {
            try #require(
                Date().timeIntervalSince(started) < 120, "sophon never waited for its standard input")
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, signo)
        await OffPool.run { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signo)
    }

    /// Whether a thread of `pid` is in `read(0, ...)` (from `/proc/PID/task/*/syscall`).
    static func readsStandardInput(_ pid: Int32) -> Bool {
        #if arch(x86_64)
            let read = "0 0x0 "
        #else
            let read = "63 0x0 "
        #endif
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            let text =
                (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)) ?? ""
            return text.hasPrefix(read)
        }
    }
}
