import Foundation
import SophonCore

/// Which API a client talks to (docs/vertex.md): the Gemini Developer API
/// (`generativelanguage.googleapis.com/v1beta`, an API key) or Vertex AI
/// (`aiplatform.googleapis.com/v1beta1`, a project and location with an OAuth access token,
/// or express mode: an API key and no project).
public enum GeminiBackend: Sendable, Hashable {
    /// The Gemini Developer API.
    case developer
    /// Vertex AI in `project` (`nil`: express mode, an API key and no project) at `location`
    /// (`global`, a region such as `us-central1`, or the multi-regions `us` and `eu`).
    case vertex(project: String?, location: String)

    /// The API version of the paths: `v1beta` or Vertex AI's `v1beta1`.
    public var apiVersion: String {
        switch self {
        case .developer: SophonGemini.apiVersion
        case .vertex: "v1beta1"
        }
    }

    /// Whether this is Vertex AI.
    public var isVertex: Bool {
        if case .vertex = self { return true }
        return false
    }

    /// Google's host for this backend: `generativelanguage.googleapis.com`; on Vertex AI
    /// `aiplatform.googleapis.com` (global and express mode), `LOCATION-aiplatform.googleapis.com`
    /// (a region), `aiplatform.LOCATION.rep.googleapis.com` (`us`, `eu`).
    public var defaultBaseURL: URL {
        switch self {
        case .developer:
            return URL(string: "https://generativelanguage.googleapis.com")!
        case .vertex(let project, let location):
            if project == nil || location == "global" {
                return URL(string: "https://aiplatform.googleapis.com")!
            }
            if ["us", "eu"].contains(location) {
                return URL(string: "https://aiplatform.\(location).rep.googleapis.com")!
            }
            return URL(string: "https://\(location)-aiplatform.googleapis.com")!
        }
    }

    /// The model as a cache's `model` names it: `models/ID`, on Vertex AI
    /// `projects/P/locations/L/publishers/google/models/ID`.
    public func modelResource(_ modelID: String) -> String {
        switch self {
        case .developer: "models/\(modelID)"
        case .vertex(let project, let location):
            (project.map { "projects/\($0)/locations/\(location)/" } ?? "") + publisherModel(modelID)
        }
    }

    /// `publishers/google/models/ID`; a `publisher/id` model ID names its own publisher.
    private func publisherModel(_ modelID: String) -> String {
        let parts = modelID.split(separator: "/", maxSplits: 1)
        if parts.count == 2 { return "publishers/\(parts[0])/models/\(parts[1])" }
        return "publishers/google/models/\(modelID)"
    }

    /// The path of `path` (a Developer API path after the version: `models/M:generateContent`,
    /// `cachedContents/ID`) on this backend.
    /// - Throws: ``GeminiError/invalidRequest(message:fieldViolations:server:)`` for what
    ///   Vertex AI does not have (the Files API, Batch mode's Developer forms, the Interactions
    ///   API for models: docs/vertex.md) or what express mode cannot reach
    ///   (caches), before anything is sent.
    func path(_ path: String) throws -> String {
        guard case .vertex(let project, let location) = self else { return path }
        if path.hasPrefix("projects/") { return path }
        let scope = project.map { "projects/\($0)/locations/\(location)/" }
        if path == "models" { return "publishers/google/models" }  // the publisher's catalog
        if path.hasPrefix("models/") {
            let rest = path.dropFirst("models/".count)
            let method = rest.firstIndex(of: ":").map { String(rest[$0...]) } ?? ""
            if [":batchGenerateContent", ":batchEmbedContents"].contains(method) {
                // Batch mode's Developer forms: Vertex AI's batch prediction reads Cloud Storage.
                throw GeminiError.invalidRequest(
                    message: GeminiLocalization(language: "en").string("vertex.noFilesOrBatches"),
                    fieldViolations: [])
            }
            let model = rest.firstIndex(of: ":").map { String(rest[..<$0]) } ?? String(rest)
            return (scope ?? "") + publisherModel(model) + method
        }
        if path.hasPrefix("cachedContents") {
            guard let scope else {
                throw GeminiError.invalidRequest(
                    message: GeminiLocalization(language: "en").string("vertex.expressNoCaches"),
                    fieldViolations: [])
            }
            return scope + path
        }
        let reason = path.hasPrefix("interactions") ? "vertex.noInteractions" : "vertex.noFilesOrBatches"
        throw GeminiError.invalidRequest(
            message: GeminiLocalization(language: "en").string(reason), fieldViolations: [])
    }
}

/// How a request's body and headers differ on Vertex AI (docs/vertex.md):
/// every content needs a role, the service tier goes in headers, countTokens takes the
/// request's fields at its root.
extension GeminiBackend {
    /// `contents` as this backend takes them: on Vertex AI a content without a role gets
    /// `user` (Vertex AI refuses a content without one: "Please use a valid role: user,
    /// model"; the Developer API reads a missing role as `user` too); unchanged on the
    /// Developer API.
    public func contents(_ contents: [Content]) -> [Content] {
        guard isVertex, contents.contains(where: { ($0.role ?? "").isEmpty }) else { return contents }
        return contents.map { content in
            guard (content.role ?? "").isEmpty else { return content }
            var filled = content
            filled.role = "user"
            return filled
        }
    }

    /// `request` as this backend takes it: its contents through ``contents(_:)``.
    public func request(_ request: GenerateContentRequest) -> GenerateContentRequest {
        guard isVertex else { return request }
        var fitted = request
        fitted.contents = contents(request.contents)
        return fitted
    }

    /// The header fields that ask for `tier` (`flex`, `priority`; lowercase) on this backend:
    /// on Vertex AI `X-Vertex-AI-LLM-Request-Type: shared` (pay-as-you-go, not provisioned
    /// throughput) and `X-Vertex-AI-LLM-Shared-Request-Type: flex|priority`; none for
    /// `standard`, no tier, or the Developer API (which reads `serviceTier` in the body).
    public func tierHeaders(_ tier: String?) -> [String: String] {
        guard isVertex, let tier = tier?.lowercased(), ["flex", "priority"].contains(tier) else { return [:] }
        return ["x-vertex-ai-llm-request-type": "shared", "x-vertex-ai-llm-shared-request-type": tier]
    }

    /// The body of `models/M:countTokens` for a whole request: the Developer API's
    /// `{"generateContentRequest": {"model": "models/M", ...}}`; on Vertex AI, which has no such
    /// member, `contents`, `systemInstruction`, `tools` and `generationConfig` at the root.
    func countTokensBody(_ request: GenerateContentRequest, modelID: String) throws -> Data {
        guard isVertex else {
            var whole = request
            whole.model = "models/" + modelID
            return try OrderedJSONEncoder().encodeData(CountTokensRequest(generateContentRequest: whole))
        }
        let counted = GenerateContentRequest(
            contents: contents(request.contents), systemInstruction: request.systemInstruction,
            tools: request.tools, generationConfig: request.generationConfig)
        return try OrderedJSONEncoder().encodeData(counted)
    }
}
