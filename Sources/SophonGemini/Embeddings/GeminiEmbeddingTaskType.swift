/// What an embedding is for (`taskType` of `embedContent`); the model tunes the vector to it.
public enum GeminiEmbeddingTaskType: String, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = "TASK_TYPE_UNSPECIFIED"
    case retrievalQuery = "RETRIEVAL_QUERY"
    /// The only task type that takes a `title`.
    case retrievalDocument = "RETRIEVAL_DOCUMENT"
    case semanticSimilarity = "SEMANTIC_SIMILARITY"
    case classification = "CLASSIFICATION"
    case clustering = "CLUSTERING"
    case questionAnswering = "QUESTION_ANSWERING"
    case factVerification = "FACT_VERIFICATION"
    case codeRetrievalQuery = "CODE_RETRIEVAL_QUERY"
}
