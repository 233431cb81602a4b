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
