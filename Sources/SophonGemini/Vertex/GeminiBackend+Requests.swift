import Foundation
import SophonCore

/// How a request's body and headers differ on Vertex AI (gemini-wire-format-3.md §2.3, §5.4):
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
