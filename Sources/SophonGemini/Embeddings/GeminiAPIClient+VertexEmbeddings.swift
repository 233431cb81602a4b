import Foundation
import SophonCore

/// Embeddings on Vertex AI (gemini-wire-format-3.md §4.3), which has no `batchEmbedContents`:
/// `gemini-embedding-001` (and the older non-Gemini embedding models) answer
/// `publishers/google/models/M:predict`, every other Gemini embedding model
/// `publishers/google/models/M:embedContent`, which takes one content per call. Sophon sends one
/// text per request to both, in order.
extension GeminiAPIClient {
    /// Embeds `texts` on Vertex AI one request after another, each through the one call path.
    /// - Returns: one embedding per text, in order.
    /// - Throws: ``GeminiError`` (`decodingFailed` for a reply without a vector), or
    ///   `CancellationError`.
    func vertexEmbeddings(
        _ texts: [String], model: GeminiModel, options: GeminiEmbeddingOptions, policy: GeminiRetryPolicy
    ) async throws -> [GeminiEmbedding] {
        var embeddings: [GeminiEmbedding] = []
        embeddings.reserveCapacity(texts.count)
        for text in texts {
            let call = GeminiAPICall<GeminiVertexEmbeddingReply>.unary(
                label: "embedContent", method: "POST", namesModel: true, model: model,
                endpoint: { modelID in
                    .modelMethod(Self.usesPredict(modelID) ? "predict" : "embedContent", model: modelID)
                },
                body: { variant in Self.vertexEmbeddingBody(text, modelID: variant.modelID, options: options)
                })
            let reply = try await perform(call, retryPolicy: policy).value
            guard let embedding = reply.embedding ?? reply.predictions?.first?.embeddings else {
                throw GeminiError.decodingFailed(reason: "the embedding reply holds no vector", excerpt: "")
            }
            embeddings.append(embedding)
        }
        return embeddings
    }

    /// Whether Vertex AI serves `modelID` by `:predict` (`gemini-embedding-001` and models
    /// whose name does not start with `gemini`) rather than `:embedContent` (pg
    /// `t_is_vertex_embed_content_model`).
    static func usesPredict(_ modelID: String) -> Bool {
        let name = modelID.split(separator: "/").last.map(String.init) ?? modelID
        return name == "gemini-embedding-001" || !name.hasPrefix("gemini")
    }

    /// The body of one Vertex AI embedding request for `text`:
    /// `{"instances":[{"content":T,"task_type":..,"title":..}],"parameters":{"outputDimensionality":N}}`
    /// for `:predict`; `{"content":{"parts":[{"text":T}]},"embedContentConfig":{"taskType":..,
    /// "title":..,"outputDimensionality":N}}` for `:embedContent`. Options left `nil` stay out;
    /// the title goes only with a retrieval-document task type.
    static func vertexEmbeddingBody(_ text: String, modelID: String, options: GeminiEmbeddingOptions) -> Data
    {
        let title = options.taskType == .retrievalDocument ? options.title : nil
        var value: JSONValue
        if usesPredict(modelID) {
            var instance = [JSONMember("content", .string(text))]
            if let taskType = options.taskType {
                instance.append(JSONMember("task_type", .string(taskType.rawValue)))
            }
            if let title { instance.append(JSONMember("title", .string(title))) }
            var members = [JSONMember("instances", .array([.object(instance)]))]
            if let dimensions = options.outputDimensionality {
                members.append(
                    JSONMember(
                        "parameters", .object([JSONMember("outputDimensionality", .integer(dimensions))])))
            }
            value = .object(members)
        } else {
            let content = JSONValue.object([
                JSONMember("parts", .array([.object([JSONMember("text", .string(text))])]))
            ])
            var config: [JSONMember] = []
            if let taskType = options.taskType {
                config.append(JSONMember("taskType", .string(taskType.rawValue)))
            }
            if let title { config.append(JSONMember("title", .string(title))) }
            if let dimensions = options.outputDimensionality {
                config.append(JSONMember("outputDimensionality", .integer(dimensions)))
            }
            var members = [JSONMember("content", content)]
            if !config.isEmpty { members.append(JSONMember("embedContentConfig", .object(config))) }
            value = .object(members)
        }
        return Data(value.compactText.utf8)
    }
}

/// A Vertex AI embedding reply: `{"embedding":{"values":[..]}}` from `:embedContent`, or
/// `{"predictions":[{"embeddings":{"values":[..],"statistics":{..}}}]}` from `:predict`.
struct GeminiVertexEmbeddingReply: Decodable, Sendable {
    /// One prediction of `:predict`.
    struct Prediction: Decodable, Sendable {
        var embeddings: GeminiEmbedding?
    }

    var embedding: GeminiEmbedding?
    var predictions: [Prediction]?
}
