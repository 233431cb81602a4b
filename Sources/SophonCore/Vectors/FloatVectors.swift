/// The one arithmetic of embedding vectors (Float32, docs/embeddings.md): dot product, length and
/// cosine similarity, used by SophonGemini's `GeminiEmbedding` and the `embeddings.db` search.
public enum FloatVectors {
    /// The dot product of two vectors of the same length (the shorter length otherwise).
    public static func dot(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>) -> Float {
        let count = min(a.count, b.count)
        // Four running sums: independent additions the compiler can vectorise.
        var s0: Float = 0
        var s1: Float = 0
        var s2: Float = 0
        var s3: Float = 0
        var index = 0
        while index + 4 <= count {
            s0 += a[index] * b[index]
            s1 += a[index + 1] * b[index + 1]
            s2 += a[index + 2] * b[index + 2]
            s3 += a[index + 3] * b[index + 3]
            index += 4
        }
        while index < count {
            s0 += a[index] * b[index]
            index += 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    /// The Euclidean length.
    public static func length(_ a: UnsafeBufferPointer<Float>) -> Float {
        dot(a, a).squareRoot()
    }

    /// The cosine similarity of two vectors, clamped to -1...1 (rounding may pass 1 by an ulp
    /// for a vector and itself); `nil` when their lengths differ or either is all zeros.
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float? {
        guard a.count == b.count else { return nil }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let norms = length(a) * length(b)
                return norms > 0 ? min(1, max(-1, dot(a, b) / norms)) : nil
            }
        }
    }
}
