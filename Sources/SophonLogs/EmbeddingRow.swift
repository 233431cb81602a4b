/// One row to store: its ID, the SHA-256 (hex) of the embedded text, the vector, and metadata
/// (compact JSON, or `nil`).
public struct EmbeddingRow: Sendable, Hashable {
    /// The row's ID in its collection.
    public var id: String
    /// The SHA-256 of the embedded text, as lower-case hex.
    public var contentHash: String
    /// The vector.
    public var vector: [Float]
    /// Metadata as compact JSON, or `nil`.
    public var metadata: String?

    /// A row to store.
    public init(id: String, contentHash: String, vector: [Float], metadata: String? = nil) {
        self.id = id
        self.contentHash = contentHash
        self.vector = vector
        self.metadata = metadata
    }
}
