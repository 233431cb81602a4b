import Foundation
import SophonTestSupport
import Synchronization

/// The real `sophon` binary pointed at a ``FakeGeminiServer`` (`SOPHON_GEMINI_BASE_URL`),
/// with a `SOPHON_HOME` of its own that lasts across runs (for `settings.json` and tapes)
/// and `GEMINI_API_KEY` set. Test support only.
final class GeminiShell {
    /// The fake server the runs talk to.
    let server: FakeGeminiServer
    /// `SOPHON_HOME`, `HOME` and the current directory of every run.
    let home: URL
    /// The key runs send (`GEMINI_API_KEY`); `nil` runs with no key at all.
    var key: String?
    /// More variables for every run (`TMPDIR`), over the ones ``environment`` sets.
    var extraEnvironment: [String: String] = [:]

    /// Starts a server expecting `serverKey`; runs send `key`.
    init(serverKey: String = "test-key", key: String? = "test-key") async throws {
        server = try await FakeGeminiServer(key: serverKey)
        home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-gemini-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        self.key = key
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// The environment of a run: no inherited key, the server's URL, the home folder.
    var environment: [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
            "SOPHON_GEMINI_BASE_URL": server.baseURLText,
        ]
        if let key { environment["GEMINI_API_KEY"] = key }
        environment.merge(extraEnvironment) { _, extra in extra }
        return environment
    }

    /// Writes `text` to `name` in the home folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The text of `name` in the home folder, `nil` when it does not exist.
    func read(_ name: String) -> String? {
        try? String(contentsOf: home.appendingPathComponent(name), encoding: .utf8)
    }

    /// Runs `sophon arguments` to the end (killed after `timeout` seconds: a hang; generous, so
    /// a loaded machine is slow, not failing), waited for off the cooperative pool.
    func run(_ arguments: [String], stdin: String = "", timeout: TimeInterval = 600) async throws
        -> SophonProcess.Outcome
    {
        let running = try start(arguments, timeout: timeout)
        try await OffPool.run {
            running.input.fileHandleForWriting.writeAllRetryingInterrupts(Data(stdin.utf8))
            try running.input.fileHandleForWriting.close()
        }
        return await running.finish()
    }

    /// Starts `sophon arguments`, for tests that read its stdout as it comes.
    func start(_ arguments: [String], timeout: TimeInterval = 600) throws -> RunningSophon {
        try RunningSophon(arguments: arguments, environment: environment, directory: home, timeout: timeout)
    }
}

/// A `sophon` process whose stdout is read as it arrives. Its reads and waits run off the
/// cooperative pool (``OffPool``), one at a time: one test drives it.
final class RunningSophon: Sendable {
    let process = Process()
    let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    /// Kills a hung run; cancelled when the run ends.
    private let watchdog: Mutex<DispatchWorkItem>
    private let seen = Mutex(Data())
    private let stderrData = CollectedBytes()
    private let stderrDone = DispatchSemaphore(value: 0)

    init(arguments: [String], environment: [String: String], directory: URL, timeout: TimeInterval) throws {
        process.executableURL = SophonProcess.binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let process = process
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        self.watchdog = Mutex(watchdog)
        let handle = errors.fileHandleForReading
        let collected = stderrData
        let done = stderrDone
        Thread {
            while true {
                let chunk = handle.readChunkRetryingInterrupts()
                if chunk.isEmpty { break }
                collected.append(chunk)
            }
            collected.end()
            done.signal()
        }.start()
    }

    /// Waits until stderr contains `text` (true) or ends without it (false), blocking a thread
    /// of its own (``OffPool``): an event, not a poll, and no pool thread held meanwhile.
    func waitForStderr(_ text: String) async -> Bool {
        let collected = stderrData
        return await OffPool.run { collected.wait(for: text) }
    }

    /// Everything read from stdout so far.
    var stdoutSoFar: String { String(decoding: seen.withLock { $0 }, as: UTF8.self) }

    /// Reads stdout until it contains `text` or ends; returns what was read in all.
    @discardableResult
    func readStdout(until text: String) async -> String {
        await OffPool.run {
            while !self.stdoutSoFar.contains(text) {
                let chunk = self.output.fileHandleForReading.readChunkRetryingInterrupts()
                if chunk.isEmpty { break }
                self.seen.withLock { $0.append(chunk) }
            }
            return self.stdoutSoFar
        }
    }

    /// Waits for the end of the run and returns all it printed.
    func finish() async -> SophonProcess.Outcome {
        await OffPool.run {
            let rest = self.output.fileHandleForReading.readAllRetryingInterrupts()
            self.seen.withLock { $0.append(rest) }
            self.stderrDone.wait()
            self.process.waitUntilExit()
            self.watchdog.withLock { $0.cancel() }
            return SophonProcess.Outcome(
                stdout: self.stdoutSoFar, stderr: String(decoding: self.stderrData.value, as: UTF8.self),
                status: self.process.terminationStatus)
        }
    }
}

/// Bytes handed from a reader thread to the test, as they arrive.
final class CollectedBytes: Sendable {
    private let state = Mutex((bytes: Data(), ended: false))
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ chunk: Data) {
        state.withLock { $0.bytes += chunk }
        arrived.signal()
    }

    /// No more bytes will come.
    func end() {
        state.withLock { $0.ended = true }
        arrived.signal()
    }

    var value: Data { state.withLock { $0.bytes } }

    /// Blocks until the bytes contain `text` (true) or ended without it (false).
    func wait(for text: String) -> Bool {
        while true {
            let (bytes, ended) = state.withLock { ($0.bytes, $0.ended) }
            if String(decoding: bytes, as: UTF8.self).contains(text) { return true }
            if ended { return false }
            arrived.wait()
        }
    }
}
