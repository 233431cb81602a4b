import Foundation

/// The lenient-reading table: which strings LLMs write for "no value", for yes and no, and
/// for numbers. The one home of these words: ``LLMDecoding``, ``LenientJSONDecoder`` and
/// schema coercion in SophonGemini all read through it, so a word means the same everywhere.
///
/// Words compare after trimming surrounding whitespace and lowercasing (`" N/A "` is a null
/// word, `"YES"` is true).
public enum LenientReading {
    /// Strings that mean "no value": the empty string, `null`, `nil`, `none`, `n/a`, `na`, `-`
    /// and `undefined` (compared trimmed and lowercased).
    ///
    /// `"0"`, `"false"` and `"unknown"` are not null words: they carry a value.
    public static let nullWords: Set<String> = [
        "", "null", "nil", "none", "n/a", "na", "-", "undefined",
    ]

    /// Strings read as `true` (compared trimmed and lowercased).
    public static let trueWords: Set<String> = ["true", "yes", "y", "1"]

    /// Strings read as `false` (compared trimmed and lowercased).
    public static let falseWords: Set<String> = ["false", "no", "n", "0"]

    /// Whether `text`, trimmed of whitespace and lowercased, is one of ``nullWords``.
    public static func isNullWord(_ text: String) -> Bool {
        nullWords.contains(normalizedWord(text))
    }

    /// The boolean a word stands for (``trueWords``, ``falseWords``), or `nil` for any other
    /// text (`"maybe"`, a null word).
    public static func bool(fromWord text: String) -> Bool? {
        let word = normalizedWord(text)
        if trueWords.contains(word) { return true }
        if falseWords.contains(word) { return false }
        return nil
    }

    /// The boolean a JSON number stands for: `1` is true and `0` false (any spelling of the
    /// value: `1.0`, `0e5`), `nil` for any other number.
    public static func bool(fromNumber number: JSONNumber) -> Bool? {
        switch number.doubleValue {
        case 1: true
        case 0: false
        default: nil
        }
    }

    /// The number written in `text`, as an exact JSON number literal: `"7"` -> `7`,
    /// `"$1,299.99"` -> `1299.99`, `"1,024"` -> `1024`, `"85%"` -> `85` (a percent sign is
    /// dropped, the value is not divided), `" -3 "` -> `-3`, `".5"` -> `0.5`.
    ///
    /// Currency symbols ($ € £ ¥), surrounding spaces, one sign, one trailing `%` and
    /// well-formed thousands separators are accepted; `nil` for other text (`"abc"`, `"NaN"`,
    /// `"0x10"`, `"1,5"`, null words). The literal may be beyond a double's range (`"1e999"`);
    /// callers decide what that means.
    public static func number(_ text: String) -> JSONNumber? {
        guard let numeric = NumericText(text) else { return nil }
        // Leading zeros (`007`) are not JSON syntax: they are dropped, the digits kept exactly.
        var digits = Substring(numeric.text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        while digits.first == "0", let next = digits.dropFirst().first, next.isASCII, next.isNumber {
            digits = digits.dropFirst()
        }
        return JSONNumber(text: (negative ? "-" : "") + digits)
    }

    /// The items of a comma-separated list (`"a, b"` -> `["a", "b"]`): each trimmed of
    /// whitespace, empty items and null words dropped (`"a, N/A, , b"` -> `["a", "b"]`).
    public static func listItems(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !isNullWord($0) }
    }

    /// `text` trimmed of surrounding whitespace and newlines, lowercased.
    static func normalizedWord(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
