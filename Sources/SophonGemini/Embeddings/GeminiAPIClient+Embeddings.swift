import Foundation
import SophonCore

extension GeminiAPIClient {
    /// The most contents one `batchEmbedContents` request carries.
    public static let embeddingBatchLimit = 100

    /// Embeds one text (`POST models/M:embedContent`), retried by `retryPolicy` (default: the
    /// configured policy); a 404 is about the embedding model and never falls back to a chat
    /// model. On Vertex AI, `:predict` or Vertex AI's `:embedContent` form (see
    /// `vertexEmbeddings`, docs/embeddings.md).
    /// - Throws: ``GeminiError`` (`invalidRequest` for an empty text, before any request),
    ///   or `CancellationError`.
    public func embedContent(
        _ text: String, model: GeminiModel, options: GeminiEmbeddingOptions = GeminiEmbeddingOptions(),
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiEmbedding {
        try Self.refuseEmptyTexts([text])
        if configuration.backend.isVertex {
            let policy = Self.embeddingPolicy(retryPolicy ?? configuration.retryPolicy)
            return try await vertexEmbeddings([text], model: model, options: options, policy: policy)[0]
        }
        let body = Data(("{" + Self.embeddingContentField(text) + options.bodyFields + "}").utf8)
        let call = GeminiAPICall<GeminiEmbedContentReply>.unary(
            label: "embedContent", method: "POST", namesModel: true, model: model,
            endpoint: { .modelMethod("embedContent", model: $0) }, body: { _ in body })
        return try await perform(
            call, retryPolicy: Self.embeddingPolicy(retryPolicy ?? configuration.retryPolicy)
        )
        .value
        .embedding
    }

    /// Embeds `texts` in order, in `models/M:batchEmbedContents` requests of at most
    /// ``embeddingBatchLimit`` contents each, sent one after another, each retried by
    /// `retryPolicy` (default: the configured policy; no fallback on a 404). Vertex AI has no
    /// `batchEmbedContents`: there each text is one request (`:predict` or `:embedContent`,
    /// docs/embeddings.md), in order.
    /// - Returns: one embedding per text, in the order of `texts`.
    /// - Throws: ``GeminiError`` (`invalidRequest` naming the first empty text before any
    ///   request; `decodingFailed` when a reply holds another number of embeddings), or
    ///   `CancellationError`.
    public func batchEmbedContents(
        _ texts: [String], model: GeminiModel, options: GeminiEmbeddingOptions = GeminiEmbeddingOptions(),
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> [GeminiEmbedding] {
        try Self.refuseEmptyTexts(texts)
        let policy = Self.embeddingPolicy(retryPolicy ?? configuration.retryPolicy)
        if configuration.backend.isVertex {
            return try await vertexEmbeddings(texts, model: model, options: options, policy: policy)
        }
        var embeddings: [GeminiEmbedding] = []
        embeddings.reserveCapacity(texts.count)
        var start = texts.startIndex
        while start < texts.endIndex {
            let end = min(start + Self.embeddingBatchLimit, texts.endIndex)
            let chunk = Array(texts[start..<end])
            let call = GeminiAPICall<GeminiBatchEmbedContentsReply>.unary(
                label: "batchEmbedContents", method: "POST", namesModel: true, model: model,
                endpoint: { .modelMethod("batchEmbedContents", model: $0) },
                body: { variant in Self.batchEmbedBody(chunk, modelID: variant.modelID, options: options) })
            let reply = try await perform(call, retryPolicy: policy).value
            let got = reply.embeddings ?? []
            guard got.count == chunk.count else {
                throw GeminiError.decodingFailed(
                    reason: "batchEmbedContents answered \(got.count) embeddings for \(chunk.count) texts",
                    excerpt: "")
            }
            embeddings += got
            start = end
        }
        return embeddings
    }

    /// The body of one `batchEmbedContents` request:
    /// `{"requests":[{"model":"models/M","content":{..},"taskType":..,...}]}`.
    static func batchEmbedBody(_ texts: [String], modelID: String, options: GeminiEmbeddingOptions) -> Data {
        let model = JSONValue.string("models/" + modelID).compactText
        var text = #"{"requests":["#
        for (index, item) in texts.enumerated() {
            if index > 0 { text += "," }
            text += #"{"model":"# + model + "," + embeddingContentField(item) + options.bodyFields + "}"
        }
        text += "]}"
        return Data(text.utf8)
    }

    /// `"content":{"parts":[{"text":T}]}`.
    private static func embeddingContentField(_ text: String) -> String {
        #""content":{"parts":[{"text":"# + JSONValue.string(text).compactText + "}]}"
    }

    /// The configured policy without the chat-model fallback on a 404.
    static func embeddingPolicy(_ configured: GeminiRetryPolicy) -> GeminiRetryPolicy {
        var policy = configured
        policy.fallbackOn404 = false
        return policy
    }

    /// Throws `invalidRequest` naming the first empty (or blank) text: the API refuses it.
    private static func refuseEmptyTexts(_ texts: [String]) throws {
        guard let index = texts.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) else { return }
        let position = texts.count == 1 ? "" : " (input \(index + 1))"
        throw GeminiError.invalidRequest(
            message: "An embedding needs a non-empty text\(position).", fieldViolations: [])
    }
}

/// Embeddings on Vertex AI (docs/embeddings.md), which has no `batchEmbedContents`:
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
