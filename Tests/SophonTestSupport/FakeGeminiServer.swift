import Foundation
import SophonCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// scripts/fake_gemini.py run on a free loopback port, for tests over real HTTP: scripted
/// replies, the requests it saw, gates that hold a stream between chunks. Started with
/// `--exit-on-stdin-eof`, so it also ends when the test process dies. Every wait here ends on
/// an event (the port printed, a reply received, a request seen); the time limits only catch
/// a hang and are generous, so a loaded machine is slow but not failing. Test support only.
public final class FakeGeminiServer: Sendable {
    /// Why the server could not be used.
    public enum Failure: Error { case noPort, controlTimeout, badControlReply, requestNotSeen }

    /// One API request as the server saw it.
    public struct SeenRequest: Sendable {
        /// `GET` or `POST`.
        public var method: String
        /// The path with its query.
        public var path: String
        /// The headers, names in lower case.
        public var headers: [String: String]
        /// The body as sent.
        public var bodyText: String
        /// The body parsed as JSON (`.null` when empty or not JSON).
        public var body: JSONValue
        /// Whether the client closed the connection before the reply was complete.
        public var disconnected: Bool
    }

    /// How long a control request may take before the server counts as hung.
    public static let controlLimit: TimeInterval = 300

    /// The port it listens on.
    public let port: Int
    private let process: Process
    /// The server's stdin: closing it (here or by our death) stops the server.
    private let input: Pipe

    /// `http://127.0.0.1:PORT`, for `SOPHON_GEMINI_BASE_URL`.
    public var baseURLText: String { "http://127.0.0.1:\(port)" }
    /// `http://127.0.0.1:PORT` as a URL, for a client configuration.
    public var baseURL: URL { URL(string: baseURLText)! }

    /// The script, found from this file's place in the repository.
    public static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/fake_gemini.py").path
    }

    /// Starts the server expecting `key`, with `replies` queued; returns once it printed its
    /// port (it prints it after it listens, so requests made afterwards are accepted). The wait
    /// for the port runs off the cooperative pool (``OffPool``).
    /// - Throws: ``Failure/noPort`` when it printed no port, or what `Process.run()` throws.
    public init(key: String = "test-key", replies: [String] = []) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--port", "0", "--key", key, "--exit-on-stdin-eof"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await OffPool.run {
            var line = Data()
            while true {
                let byte = output.fileHandleForReading.readChunkRetryingInterrupts(limit: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                line.append(byte)
            }
            return line
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw Failure.noPort
        }
        self.port = port
        self.process = process
        self.input = input
        if !replies.isEmpty { try await script(replies) }
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

    /// Queues replies (each a JSON object text; see the script's header), after clearing the
    /// queue and the request log.
    public func script(_ replies: [String]) async throws {
        _ = try await control(
            "POST", "/_sophon/script",
            body: #"{"reset": true, "replies": [\#(replies.joined(separator: ","))]}"#)
    }

    /// Lets a `"gated": true` stream send chunk `number` (1-based after the first).
    public func release(chunk number: Int) async throws {
        _ = try await control("POST", "/_sophon/release", body: #"{"gate": "chunk\#(number)"}"#)
    }

    /// The API requests seen so far, in order.
    public func requests() async throws -> [SeenRequest] {
        let data = try await control("GET", "/_sophon/requests", body: nil)
        guard case .array(let items) = try JSONValue(parsing: String(decoding: data, as: UTF8.self)) else {
            throw Failure.badControlReply
        }
        return items.map { item in
            var headers: [String: String] = [:]
            if case .object(let members) = item["headers"] ?? .null {
                for member in members { headers[member.key] = member.value.stringValue ?? "" }
            }
            let text = item["body"]?.stringValue ?? ""
            return SeenRequest(
                method: item["method"]?.stringValue ?? "", path: item["path"]?.stringValue ?? "",
                headers: headers, bodyText: text, body: (try? JSONValue(parsing: text)) ?? .null,
                disconnected: item["disconnected"] == .bool(true))
        }
    }

    /// The paths of the API requests seen, in order.
    public func paths() async throws -> [String] { try await requests().map(\.path) }

    /// Waits until the server saw at least `count` API requests; returns their paths.
    /// - Throws: ``Failure/requestNotSeen`` after `limit` seconds without them (a hang).
    @discardableResult
    public func waitForRequests(_ count: Int = 1, limit: TimeInterval = 300) async throws -> [String] {
        let end = Date().addingTimeInterval(limit)
        while true {
            let seen = try await paths()
            if seen.count >= count { return seen }
            guard Date() < end else { throw Failure.requestNotSeen }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `method` to the control endpoint `path` (`/_sophon/...`) with a JSON `body`; the
    /// wait for the reply runs off the cooperative pool (``OffPool``).
    /// - Returns: the reply body.
    /// - Throws: ``Failure/controlTimeout`` after ``controlLimit`` without an answer, or the
    ///   request's error.
    public func control(_ method: String, _ path: String, body: String?) async throws -> Data {
        guard let url = URL(string: baseURLText + path) else { throw Failure.controlTimeout }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.timeoutInterval = Self.controlLimit
        let sent = request
        return try await OffPool.run {
            let result = Mutex<Result<Data, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            URLSession.shared.dataTask(with: sent) { data, _, error in
                result.withLock { $0 = error.map { .failure($0) } ?? .success(data ?? Data()) }
                done.signal()
            }.resume()
            guard done.wait(timeout: .now() + Self.controlLimit) == .success,
                let outcome = result.withLock({ $0 })
            else {
                throw Failure.controlTimeout
            }
            return try outcome.get()
        }
    }
}
