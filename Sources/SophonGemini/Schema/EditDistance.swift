/// Levenshtein distance for "did you mean" suggestions (type names, model names).
enum EditDistance {
    /// The number of single-character insertions, deletions and substitutions turning `a`
    /// into `b`, compared case-insensitively.
    static func between(_ a: String, _ b: String) -> Int {
        let left = Array(a.lowercased())
        let right = Array(b.lowercased())
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        for (i, leftCharacter) in left.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: right.count)
            for (j, rightCharacter) in right.enumerated() {
                let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, substitution)
            }
            previous = current
        }
        return previous[right.count]
    }

    /// The candidate closest to `text` within `limit` edits (the first on a tie), or `nil`.
    static func suggestion(for text: String, among candidates: [String], limit: Int = 2) -> String? {
        var best: (distance: Int, candidate: String)?
        let length = text.lowercased().count
        // The distance is at least the difference in length: a huge word is compared with
        // nothing (the comparison is quadratic).
        for candidate in candidates where abs(candidate.lowercased().count - length) <= limit {
            let distance = between(text, candidate)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (distance, candidate) }
        }
        return best?.candidate
    }
}
