import Foundation
import SophonTestSupport

/// scripts/fake_gemini.py on a free loopback port for one client test. Test support only.
final class FakeGeminiServer: Sendable {
    private let server: FakeGeminiServerProcess

    var port: Int { server.port }
    var baseURL: URL { URL(string: server.baseURLText)! }

    /// Starts the server with `replies` queued; returns once it printed its port.
    init(key: String = "test-key", replies: [String] = []) throws {
        server = try FakeGeminiServerProcess(key: key)
        if !replies.isEmpty { try script(replies) }
    }

    /// Queues replies (each a JSON object text, see the script's header).
    func script(_ replies: [String]) throws {
        let body = "{\"replies\": [\(replies.joined(separator: ","))]}"
        _ = try server.control("POST", "/_sophon/script", body: body)
    }

    /// The API requests the server saw, as JSON objects (method, path, headers, body).
    func requests() throws -> [[String: Any]] {
        let data = try server.control("GET", "/_sophon/requests", body: nil)
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The paths of the API requests seen, in order.
    func paths() throws -> [String] { try requests().compactMap { $0["path"] as? String } }
}
