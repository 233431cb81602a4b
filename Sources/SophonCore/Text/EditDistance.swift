/// Edit distance with transpositions (optimal string alignment), for "did you mean"
/// suggestions (type names, model names, commands): swapping two neighbouring letters counts as
/// one edit, as docs/language.md asks (`ehco` is one edit from `echo`).
public enum EditDistance {
    /// The number of single-character insertions, deletions, substitutions and swaps of two
    /// neighbouring characters turning `a` into `b`, by Unicode character (grapheme cluster):
    /// `between("kitten", "sitting") == 3`, `between("ehco", "echo") == 1`. A substring is
    /// edited at most once (optimal string alignment).
    /// - Parameters:
    ///   - a: the first string.
    ///   - b: the second string.
    ///   - ignoringCase: compare the lowercased strings.
    public static func between(_ a: String, _ b: String, ignoringCase: Bool = false) -> Int {
        let left = Array(ignoringCase ? a.lowercased() : a)
        let right = Array(ignoringCase ? b.lowercased() : b)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var beforePrevious = [Int](repeating: 0, count: right.count + 1)
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[right.count]
    }

    /// The "did you mean" candidates for `word` by the rule of docs/language.md ("Errors and
    /// locations"): at most 2 edits away, or 1 when `word` has 4 characters or fewer; closest
    /// first, ties in the candidates' order.
    public static func suggestions(for word: String, among candidates: [String]) -> [String] {
        closest(to: word, among: candidates, limit: word.count <= 4 ? 1 : 2)
    }

    /// The candidates at most `limit` edits from `word`, closest first; candidates at the same
    /// distance keep their order in `candidates`. Linear in the length of `word` when no
    /// candidate is within `limit` characters of its length.
    /// - Parameters:
    ///   - word: what the user typed.
    ///   - candidates: the valid names.
    ///   - limit: the largest distance accepted.
    ///   - ignoringCase: compare the lowercased strings.
    public static func closest(
        to word: String, among candidates: [String], limit: Int, ignoringCase: Bool = false
    ) -> [String] {
        // The distance is at least the difference in length: candidates out of reach by length
        // alone are skipped before the quadratic comparison (a 10 MB word against a command
        // list took minutes).
        let length = (ignoringCase ? word.lowercased() : word).count
        return candidates.enumerated()
            .filter { abs((ignoringCase ? $0.element.lowercased() : $0.element).count - length) <= limit }
            .map {
                (
                    index: $0.offset, name: $0.element,
                    distance: between(word, $0.element, ignoringCase: ignoringCase)
                )
            }
            .filter { $0.distance <= limit }
            .sorted { ($0.distance, $0.index) < ($1.distance, $1.index) }
            .map(\.name)
    }
}
