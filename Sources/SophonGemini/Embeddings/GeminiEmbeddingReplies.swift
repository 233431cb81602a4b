/// The reply of `models/M:embedContent`: `{"embedding":{"values":[..]}}`.
struct GeminiEmbedContentReply: Decodable, Sendable {
    var embedding: GeminiEmbedding
}

/// The reply of `models/M:batchEmbedContents`: `{"embeddings":[{"values":[..]}]}`.
struct GeminiBatchEmbedContentsReply: Decodable, Sendable {
    var embeddings: [GeminiEmbedding]?
}
