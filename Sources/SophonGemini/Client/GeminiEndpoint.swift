import Foundation

/// Where a request goes: a path under the API version (`/v1beta/`) and its query, joined to the
/// configured base URL (`scheme://host[:port][/prefix]`, a trailing `/v1beta` tolerated) in
/// ``url(base:)``. Every request kind names its endpoint here.
struct GeminiEndpoint: Sendable {
    /// The path after `/v1beta/`: `models/gemini-2.5-flash:generateContent`.
    var path: String
    /// Query items, in order (values percent-encoded in ``url(base:)``).
    var query: [(String, String)] = []
    /// A folder before the API version: `upload` for the Files API's upload endpoint
    /// (`/upload/v1beta/files`), `download` for a download; empty for everything else.
    var root: String = ""

    /// `models/ID:generateContent`.
    static func generateContent(model modelID: String) -> GeminiEndpoint {
        modelMethod("generateContent", model: modelID)
    }

    /// `models/ID:streamGenerateContent?alt=sse`.
    static func streamGenerateContent(model modelID: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "models/\(modelID):streamGenerateContent", query: [("alt", "sse")])
    }

    /// `models/ID:METHOD` (`countTokens`, `generateContent`).
    static func modelMethod(_ method: String, model modelID: String) -> GeminiEndpoint {
        GeminiEndpoint(path: "models/\(modelID):\(method)")
    }

    /// `models?pageSize=N&pageToken=T` (each only when given; an empty token is left out).
    static func models(pageSize: Int?, pageToken: String?) -> GeminiEndpoint {
        var query: [(String, String)] = []
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        if let pageToken, !pageToken.isEmpty { query.append(("pageToken", pageToken)) }
        return GeminiEndpoint(path: "models", query: query)
    }

    /// `upload/v1beta/files`: starts a resumable upload (docs/library.md, "Files").
    static let uploadFiles = GeminiEndpoint(path: "files", root: "upload")

    /// `files/ID` (`name` is `files/ID`).
    static func file(_ name: String) -> GeminiEndpoint {
        GeminiEndpoint(path: name.hasPrefix("files/") ? name : "files/\(name)")
    }

    /// `files?pageSize=N&pageToken=T`.
    static func files(pageSize: Int?, pageToken: String?) -> GeminiEndpoint {
        var endpoint = models(pageSize: pageSize, pageToken: pageToken)
        endpoint.path = "files"
        return endpoint
    }

    /// `files/ID:download?alt=media`.
    static func download(_ name: String) -> GeminiEndpoint {
        GeminiEndpoint(path: file(name).path + ":download", query: [("alt", "media")])
    }

    /// The URL of this endpoint under `base`, which may carry a port, a path prefix and a
    /// tolerated trailing `/v1beta` (or `/v1beta/`).
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`.other`) when the text is no URL.
    func url(base: URL) throws -> URL {
        var root = base.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        if root.hasSuffix("/" + SophonGemini.apiVersion) {
            root.removeLast(SophonGemini.apiVersion.count + 1)
        }
        if !self.root.isEmpty { root += "/" + self.root }
        var text = "\(root)/\(SophonGemini.apiVersion)/\(path)"
        if !query.isEmpty {
            let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))
            text +=
                "?"
                + query.map { name, value in
                    "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
                }.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw GeminiError.transport(.other, detail: "Invalid URL: \(text)")
        }
        return url
    }
}
