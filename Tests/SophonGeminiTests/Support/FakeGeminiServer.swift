import Foundation
import SophonCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs scripts/fake_gemini.py on a free loopback port for one test. Test support only.
final class FakeGeminiServer: Sendable {
    let port: Int
    let process: Process
    /// The server's stdin: closing it (here or by our death) stops the server.
    let input: Pipe
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/fake_gemini.py").path
    }

    /// Starts the server with `replies` queued; returns once it printed its port.
    init(key: String = "test-key", replies: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--port", "0", "--key", key, "--exit-on-stdin-eof"]
        let input = Pipe()
        process.standardInput = input
        let output = Pipe()
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
            throw FakeServerError.noPort
        }
        self.port = port
        self.process = process
        self.input = input
        if !replies.isEmpty { try script(replies) }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        kill(process.processIdentifier, SIGKILL)
    }

    /// Queues replies (each a JSON object text, see the script's header).
    func script(_ replies: [String]) throws {
        let body = "{\"replies\": [\(replies.joined(separator: ","))]}"
        _ = try control("POST", "/_sophon/script", body: body)
    }

    /// The API requests the server saw, as JSON objects (method, path, headers, body).
    func requests() throws -> [[String: Any]] {
        let data = try control("GET", "/_sophon/requests", body: nil)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The paths of the API requests seen, in order.
    func paths() throws -> [String] { try requests().compactMap { $0["path"] as? String } }

    private func control(_ method: String, _ path: String, body: String?) throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        let result = Mutex<Result<Data, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, error in
            result.withLock { $0 = error.map { .failure($0) } ?? .success(data ?? Data()) }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 10) == .success, let outcome = result.withLock({ $0 }) else {
            throw FakeServerError.controlTimeout
        }
        return try outcome.get()
    }
}

enum FakeServerError: Error { case noPort, controlTimeout }
