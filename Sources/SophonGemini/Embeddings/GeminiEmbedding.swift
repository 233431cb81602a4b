import Foundation
import SophonCore

/// One embedding vector (Float32), as `embedContent` answers it.
public struct GeminiEmbedding: Sendable, Hashable, Codable {
    /// The vector's components.
    public var values: [Float]

    /// A vector of these components.
    public init(values: [Float]) {
        self.values = values
    }

    /// Decodes `{"values": [..]}`; a vector without components is refused, so an empty reply
    /// never becomes a collection of 0 dimensions or an empty `embed` result.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let values = try container.decode([Float].self, forKey: .values)
        guard !values.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .values, in: container, debugDescription: "an embedding with no values")
        }
        self.values = values
    }

    private enum CodingKeys: String, CodingKey {
        case values
    }

    /// The number of dimensions.
    public var dimensions: Int { values.count }

    /// The vector as little-endian Float32 bytes (4 per dimension), as `embeddings.db` stores it.
    public var littleEndianData: Data {
        var data = Data(capacity: values.count * 4)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Reads little-endian Float32 bytes; `nil` when the length is not a multiple of 4.
    public init?(littleEndianData data: Data) {
        guard data.count % 4 == 0 else { return nil }
        var values = [Float](repeating: 0, count: data.count / 4)
        data.withUnsafeBytes { raw in
            for index in values.indices {
                let bits = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                values[index] = Float(bitPattern: UInt32(littleEndian: bits))
            }
        }
        self.values = values
    }

    /// The cosine similarity of two vectors (-1...1); `nil` when their dimensions differ or
    /// either is all zeros.
    public static func cosineSimilarity(_ a: [Float], _ b: [Float]) -> Float? {
        FloatVectors.cosine(a, b)
    }

    /// The cosine similarity with `other`; `nil` as ``cosineSimilarity(_:_:)`` says.
    public func cosineSimilarity(with other: GeminiEmbedding) -> Float? {
        Self.cosineSimilarity(values, other.values)
    }
}

/// The options of one embedding request: `taskType`, `title` (sent only with
/// ``GeminiEmbeddingTaskType/retrievalDocument``) and `outputDimensionality`; `nil` leaves a
/// field out of the body.
public struct GeminiEmbeddingOptions: Sendable, Hashable {
    /// What the vector is for; `nil` leaves `taskType` out.
    public var taskType: GeminiEmbeddingTaskType?
    /// The document's title (sent only with a retrieval-document task type).
    public var title: String?
    /// The number of dimensions asked for (a shorter vector from an MRL model).
    public var outputDimensionality: Int?

    /// Options; each `nil` field is left out of the body.
    public init(
        taskType: GeminiEmbeddingTaskType? = nil, title: String? = nil, outputDimensionality: Int? = nil
    ) {
        self.taskType = taskType
        self.title = title
        self.outputDimensionality = outputDimensionality
    }

    /// `,"taskType":..,"title":..,"outputDimensionality":..` for the fields that are set, in
    /// that order (the title only for a retrieval document).
    var bodyFields: String {
        var text = ""
        if let taskType { text += #","taskType":"# + JSONValue.string(taskType.rawValue).compactText }
        if let title, taskType == .retrievalDocument {
            text += #","title":"# + JSONValue.string(title).compactText
        }
        if let outputDimensionality { text += #","outputDimensionality":"# + String(outputDimensionality) }
        return text
    }
}

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

/// The reply of `models/M:embedContent`: `{"embedding":{"values":[..]}}`.
struct GeminiEmbedContentReply: Decodable, Sendable {
    var embedding: GeminiEmbedding
}

/// The reply of `models/M:batchEmbedContents`: `{"embeddings":[{"values":[..]}]}`.
struct GeminiBatchEmbedContentsReply: Decodable, Sendable {
    var embeddings: [GeminiEmbedding]?
}
