/// Why the embedding store refused something (docs/embeddings.md).
public enum EmbeddingStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Vectors of another model or dimension than the collection holds.
    case mismatch(
        collection: String, storedModel: String, storedDimensions: Int, model: String, dimensions: Int)
    /// No collection of that name.
    case noSuchCollection(String)

    /// The message, naming both models and dimensions.
    public var description: String {
        switch self {
        case .mismatch(let collection, let storedModel, let storedDimensions, let model, let dimensions):
            "collection '\(collection)' holds \(storedModel) vectors of \(storedDimensions) dimensions;"
                + " refusing \(model) vectors of \(dimensions) dimensions"
        case .noSuchCollection(let name): "no collection '\(name)'"
        }
    }
}
