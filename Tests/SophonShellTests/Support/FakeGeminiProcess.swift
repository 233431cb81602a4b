import Foundation
import SophonCore
import SophonTestSupport

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

    private let server: FakeGeminiServerProcess

    var port: Int { server.port }
    /// `http://127.0.0.1:PORT`, for `SOPHON_GEMINI_BASE_URL`.
    var baseURL: String { server.baseURLText }

    /// Starts the server expecting `key`; returns once it printed its port.
    init(key: String = "test-key") throws {
        server = try FakeGeminiServerProcess(key: key)
    }

    /// Stops the server (idempotent); later requests to its port are refused.
    func stop() { server.stop() }

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
        try server.control(method, path, body: body)
    }
}

enum FakeGeminiProcessError: Error { case badControlReply }
