/// One stored collection: its model, dimension and number of rows.
public struct EmbeddingCollection: Sendable, Hashable {
    /// The collection's name.
    public var name: String
    /// The model its vectors come from.
    public var model: String
    /// The dimension of every vector.
    public var dimensions: Int
    /// The number of rows.
    public var count: Int

    /// A collection as stored.
    public init(name: String, model: String, dimensions: Int, count: Int) {
        self.name = name
        self.model = model
        self.dimensions = dimensions
        self.count = count
    }
}
