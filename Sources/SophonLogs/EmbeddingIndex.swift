import SophonCore

/// A collection's vectors in memory, one contiguous Float32 buffer, for `similar`
/// (docs/embeddings.md): read once from `embeddings.db` (``EmbeddingStore/index(of:)``), then
/// each query is a scan of dot products with lengths computed once.
public struct EmbeddingIndex: Sendable {
    /// The collection, as stored when the index was read.
    public let collection: EmbeddingCollection
    /// The row IDs, in the order of the vectors.
    public let ids: [String]
    /// Each row's metadata JSON, or `nil`.
    public let metadata: [String?]
    /// ``EmbeddingStore/dataVersion()`` when the index was read.
    public let version: Int
    private let values: [Float]
    private let lengths: [Float]

    /// One match: the row's position, ID and cosine similarity.
    public struct Match: Sendable, Hashable {
        /// The row's position in ``EmbeddingIndex/ids``.
        public var position: Int
        /// The row's ID.
        public var id: String
        /// The cosine similarity with the query.
        public var score: Float
    }

    init(collection: EmbeddingCollection, ids: [String], metadata: [String?], values: [Float], version: Int) {
        self.collection = collection
        self.ids = ids
        self.metadata = metadata
        self.values = values
        self.version = version
        let dimensions = collection.dimensions
        lengths = values.withUnsafeBufferPointer { all in
            (0..<ids.count).map { row in
                FloatVectors.length(
                    UnsafeBufferPointer(rebasing: all[(row * dimensions)..<((row + 1) * dimensions)]))
            }
        }
    }

    /// The `limit` rows most similar to `query` by cosine, best first (ties by ID order);
    /// rows of length zero are left out.
    /// - Precondition: `query` has the collection's dimension.
    public func nearest(to query: [Float], limit: Int) -> [Match] {
        let dimensions = collection.dimensions
        guard limit > 0, query.count == dimensions else { return [] }
        var best: [(score: Float, position: Int)] = []
        best.reserveCapacity(limit + 1)
        query.withUnsafeBufferPointer { query in
            let queryLength = FloatVectors.length(query)
            guard queryLength > 0 else { return }
            values.withUnsafeBufferPointer { all in
                for row in 0..<ids.count where lengths[row] > 0 {
                    let vector = UnsafeBufferPointer(
                        rebasing: all[(row * dimensions)..<((row + 1) * dimensions)])
                    // Clamped: rounding may pass 1 by an ulp for a vector and itself.
                    let score = min(
                        1, max(-1, FloatVectors.dot(vector, query) / (lengths[row] * queryLength)))
                    if best.count == limit, let last = best.last, score <= last.score { continue }
                    // Insertion into the short sorted list of the best so far.
                    var slot = best.count
                    while slot > 0, best[slot - 1].score < score { slot -= 1 }
                    best.insert((score, row), at: slot)
                    if best.count > limit { best.removeLast() }
                }
            }
        }
        return best.map { Match(position: $0.position, id: ids[$0.position], score: $0.score) }
    }
}
