import SophonCore

/// "Did you mean" suggestions by Levenshtein distance (SophonCore's ``EditDistance``), as
/// swift-argument-parser does.
enum Suggestions {
    /// The candidates closest to `word` (distance at most a third of its length, at least 1,
    /// at most 2), closest first, ties in the candidates' order.
    static func closest(to word: String, in candidates: [String]) -> [String] {
        let limit = min(2, max(1, word.count / 3))
        return EditDistance.closest(to: word, among: candidates, limit: limit)
    }
}
