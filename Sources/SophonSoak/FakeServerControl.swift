import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs scripts/fake_gemini.py as a child process and talks to its control endpoints.
@MainActor final class FakeServerControl {
    /// Why the server could not be used.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
    }

    /// The key the server accepts.
    let key = "soak-test-key"
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    private let process: Process
    private let session: URLSession

    /// Starts the server found at `script` and waits for the port it prints.
    init(script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port", "0", "--key", key]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), let url = URL(string: "http://127.0.0.1:\(port)") else {
            process.terminate()
            throw Failure(description: "fake_gemini.py printed no port (got \(text.debugDescription))")
        }
        self.process = process
        self.baseURL = url
        self.session = URLSession(configuration: .ephemeral)
    }

    /// Stops the server and waits for it: a top-level instance is never deinitialized, so the
    /// soak calls this before it exits (else the server outlives it).
    func stop() {
        session.invalidateAndCancel()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    isolated deinit {
        session.invalidateAndCancel()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Clears the queue and the request log, then queues `replies`.
    func script(_ replies: [[String: Any]]) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["replies": replies, "reset": true])
        _ = try await call("POST", "/_sophon/script", body: body)
    }

    /// The requests the server saw: path and body of each.
    func requests() async throws -> [(path: String, body: String)] {
        let data = try await call("GET", "/_sophon/requests", body: nil)
        guard let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw Failure(description: "the request log is not a JSON array")
        }
        return list.map { (($0["path"] as? String) ?? "", ($0["body"] as? String) ?? "") }
    }

    private func call(_ method: String, _ path: String, body: Data?) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 60
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw Failure(description: "\(method) \(path) answered \(response)")
        }
        return data
    }
}
