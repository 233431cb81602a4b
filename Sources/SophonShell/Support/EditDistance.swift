import SophonCore

/// "Did you mean" suggestions by edit distance with transpositions (SophonCore's
/// ``EditDistance``), by the rule of docs/language.md ("Errors and locations").
enum Suggestions {
    /// The candidates closest to `word` (distance at most 2, or at most 1 when `word` has 4
    /// characters or fewer), closest first, ties in the candidates' order.
    static func closest(to word: String, in candidates: [String]) -> [String] {
        let limit = word.count <= 4 ? 1 : 2
        return EditDistance.closest(to: word, among: candidates, limit: limit)
    }
}
