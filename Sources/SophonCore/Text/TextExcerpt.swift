/// Short excerpts of long text for messages (a reply that did not decode, a value in a
/// failure line).
public enum TextExcerpt {
    /// `text` cut to its first `limit` characters (grapheme clusters), with `…` appended when
    /// it was longer; a negative `limit` counts as 0.
    public static func prefix(_ text: String, limit: Int) -> String {
        let limit = max(limit, 0)
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// `text` with each run of separator characters replaced by one space (runs at either end
    /// dropped), then cut as ``prefix(_:limit:)``.
    /// - Parameters:
    ///   - text: the text to collapse.
    ///   - limit: the most characters (grapheme clusters) kept before `…`.
    ///   - isSeparator: which characters separate words; whitespace (line breaks included) by
    ///     default.
    public static func collapsed(
        _ text: String, limit: Int, separatedBy isSeparator: (Character) -> Bool = \.isWhitespace
    ) -> String {
        prefix(text.split(whereSeparator: isSeparator).joined(separator: " "), limit: limit)
    }
}
