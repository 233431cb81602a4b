import Foundation
import SophonTestSupport

/// Runs the real `sophon` binary and captures what it printed.
struct SophonProcess {
    /// What one run printed and how it ended.
    struct Outcome: Equatable {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The binary under test: `$SOPHON_BINARY`, else `sophon` beside the test bundle.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["SOPHON_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let beside = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("sophon")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/sophon")
    }()

    /// Runs `sophon arguments` with `stdin` as its standard input, in a fresh folder that is
    /// both `SOPHON_HOME` and the current directory (holding a copy of `files` when given),
    /// with no key unless `environment` sets one. Kills it after `timeout` seconds (a hang; generous, so a loaded
    /// machine is slow, not failing). The run is waited for off the cooperative pool (``OffPool``).
    static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:],
        files: URL? = nil, stdoutPath: String? = nil, timeout: TimeInterval = 300
    ) async throws -> Outcome {
        try await OffPool.run {
            try runBlocking(
                arguments, stdin: stdin, environment: environment, files: files, stdoutPath: stdoutPath,
                timeout: timeout)
        }
    }

    /// ``run(_:stdin:environment:files:stdoutPath:timeout:)`` on the calling thread, which it
    /// blocks until the child ends.
    private static func runBlocking(
        _ arguments: [String], stdin: String, environment: [String: String], files: URL?,
        stdoutPath: String?, timeout: TimeInterval
    ) throws -> Outcome {
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("sophon-test-\(UUID().uuidString)")
        if let files, FileManager.default.fileExists(atPath: files.path) {
            try FileManager.default.copyItem(at: files, to: home)
        } else {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: home) }

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var env = [
            "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
            "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9",
        ]
        env.merge(environment) { _, new in new }
        process.environment = env
        process.currentDirectoryURL = home
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        if let stdoutPath, let handle = FileHandle(forWritingAtPath: stdoutPath) {
            process.standardOutput = handle
            try? output.fileHandleForWriting.close()
        } else {
            process.standardOutput = output
        }
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        input.fileHandleForWriting.writeAllRetryingInterrupts(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let stdoutData = output.fileHandleForReading.readAllRetryingInterrupts()
        let stderrData = errors.fileHandleForReading.readAllRetryingInterrupts()
        process.waitUntilExit()
        watchdog.cancel()
        return Outcome(
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            status: process.terminationStatus)
    }
}
