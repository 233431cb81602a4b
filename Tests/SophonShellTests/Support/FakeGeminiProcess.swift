import Foundation
import SophonCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// scripts/fake_gemini.py on a free loopback port, for the shell's end-to-end tests: scripted
/// replies, the requests it saw, gates that hold a stream between chunks. Test support only.
final class FakeGeminiProcess: Sendable {
    /// One API request as the server saw it.
    struct SeenRequest {
        var method: String
        var path: String
        var headers: [String: String]
        /// The body parsed as JSON (`.null` when empty or not JSON).
        var body: JSONValue
        /// Whether the client closed the connection before the reply was complete.
        var disconnected: Bool
    }

    let port: Int
    private let process: Process
    /// The server's stdin: closing it (here or by our death) stops the server.
    private let input: Pipe

    /// `http://127.0.0.1:PORT`, for `SOPHON_GEMINI_BASE_URL`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/fake_gemini.py").path
    }

    /// Starts the server expecting `key`; returns once it printed its port.
    init(key: String = "test-key") throws {
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
            throw FakeGeminiProcessError.noPort
        }
        self.port = port
        self.process = process
        self.input = input
    }

    deinit { stop() }

    /// Stops the server (idempotent); later requests to its port are refused.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Queues replies (each a JSON object text; see the script's header), after clearing the
    /// queue and the request log.
    func script(_ replies: [String]) throws {
        _ = try control(
            "POST", "/_sophon/script",
            body: #"{"reset": true, "replies": [\#(replies.joined(separator: ","))]}"#)
    }

    /// Lets a `"gated": true` stream send chunk `number` (1-based after the first).
    func release(chunk number: Int) throws {
        _ = try control("POST", "/_sophon/release", body: #"{"gate": "chunk\#(number)"}"#)
    }

    /// The API requests seen so far, in order.
    func requests() throws -> [SeenRequest] {
        let data = try control("GET", "/_sophon/requests", body: nil)
        guard case .array(let items) = try JSONValue(parsing: String(decoding: data, as: UTF8.self)) else {
            throw FakeGeminiProcessError.badControlReply
        }
        return items.map { item in
            var headers: [String: String] = [:]
            if case .object(let members) = item["headers"] ?? .null {
                for member in members { headers[member.key] = member.value.stringValue ?? "" }
            }
            let text = item["body"]?.stringValue ?? ""
            return SeenRequest(
                method: item["method"]?.stringValue ?? "", path: item["path"]?.stringValue ?? "",
                headers: headers, body: (try? JSONValue(parsing: text)) ?? .null,
                disconnected: item["disconnected"] == .bool(true))
        }
    }

    private func control(_ method: String, _ path: String, body: String?) throws -> Data {
        guard let url = URL(string: baseURL + path) else { throw FakeGeminiProcessError.badControlReply }
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
            throw FakeGeminiProcessError.controlTimeout
        }
        return try outcome.get()
    }
}

enum FakeGeminiProcessError: Error { case noPort, controlTimeout, badControlReply }
