import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// The transport of `ask --dry-run` and `set dry-run on` (docs/commands.md, "Dry run"): the
/// client builds the request exactly as for a real call, and this transport keeps it instead of
/// sending it, then stops the call with ``Stopped``. Nothing reaches the network.
final class DryRunTransport: GeminiTransport {
    /// Ends the call once the request is kept; not a ``GeminiError``, so the client neither
    /// retries nor classifies it.
    struct Stopped: Error {}

    private let captured = Mutex<GeminiHTTPRequest?>(nil)

    func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        captured.withLock { $0 = $0 ?? request }
        throw Stopped()
    }

    /// The request the client would have sent, once it tried.
    var request: GeminiHTTPRequest? { captured.withLock { $0 } }

    /// What a dry run prints on stdout: `METHOD PATH` (the query kept: `?alt=sse`), then the body
    /// as pretty JSON. Headers are left out, so the key is never shown.
    static func rendered(_ request: GeminiHTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? request.url.path
        if let query = components?.percentEncodedQuery, !query.isEmpty { path += "?" + query }
        var text = "\(request.method) \(path)"
        if let body = request.body {
            let bodyText = String(decoding: body, as: UTF8.self)
            text += "\n" + ((try? JSONValue(parsing: bodyText))?.prettyText ?? bodyText)
        }
        return text
    }
}
