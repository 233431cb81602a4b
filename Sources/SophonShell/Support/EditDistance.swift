/// "Did you mean" suggestions by Levenshtein distance, as swift-argument-parser does.
enum Suggestions {
    /// The candidates closest to `word` (distance at most a third of its length, at least 1,
    /// at most 2), closest first, ties in the candidates' order.
    static func closest(to word: String, in candidates: [String]) -> [String] {
        let length = word.count
        let limit = min(2, max(1, length / 3))
        // The distance is at least the difference in length: skip those out of reach before
        // the quadratic comparison (a 10 MB word would otherwise take minutes).
        let reachable = candidates.filter { abs($0.count - length) <= limit }
        let scored = reachable.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
        return scored.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The Levenshtein distance between `a` and `b`, by Unicode character.
    static func distance(_ a: String, _ b: String) -> Int {
        let left = Array(a)
        let right = Array(b)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
