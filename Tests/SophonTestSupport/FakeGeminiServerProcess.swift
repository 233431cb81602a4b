import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// scripts/fake_gemini.py run on a free loopback port, for tests over real HTTP: started with
/// `--exit-on-stdin-eof`, so it also ends when the test process dies. The test targets wrap it
/// in the helpers they need. Test support only.
public final class FakeGeminiServerProcess: Sendable {
    /// Why the server could not be used.
    public enum Failure: Error { case noPort, controlTimeout }

    /// The port it listens on.
    public let port: Int
    private let process: Process
    /// The server's stdin: closing it (here or by our death) stops the server.
    private let input: Pipe

    /// `http://127.0.0.1:PORT`.
    public var baseURLText: String { "http://127.0.0.1:\(port)" }

    /// The script, found from this file's place in the repository.
    public static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/fake_gemini.py").path
    }

    /// Starts the server expecting `key`; returns once it printed its port.
    /// - Throws: ``Failure/noPort`` when it printed no port, or what `Process.run()` throws.
    public init(key: String = "test-key") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--port", "0", "--key", key, "--exit-on-stdin-eof"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw Failure.noPort
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit { stop() }

    /// Stops the server (idempotent); later requests to its port are refused.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends `method` to the control endpoint `path` (`/_sophon/...`) with a JSON `body`.
    /// - Returns: the reply body.
    /// - Throws: ``Failure/controlTimeout`` after 10 s without an answer, or the request's error.
    public func control(_ method: String, _ path: String, body: String?) throws -> Data {
        guard let url = URL(string: baseURLText + path) else { throw Failure.controlTimeout }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        let result = Mutex<Result<Data, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, error in
            result.withLock { $0 = error.map { .failure($0) } ?? .success(data ?? Data()) }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let outcome = result.withLock({ $0 }) else {
            throw Failure.controlTimeout
        }
        return try outcome.get()
    }
}
