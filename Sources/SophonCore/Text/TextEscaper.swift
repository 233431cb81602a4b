/// A rule for writing text inside another language's quoting (HTML, XML, roff, YAML, Swift):
/// each Unicode scalar is kept, or replaced by the text ``replacements`` or ``otherwise`` gives
/// it (an empty replacement drops the scalar).
///
/// ```swift
/// let html = TextEscaper(["&": "&amp;", "<": "&lt;", ">": "&gt;"])
/// html.escape("a < b & c")  // "a &lt; b &amp; c"
/// ```
package struct TextEscaper: Sendable {
    /// The scalars replaced by a fixed text.
    package let replacements: [Unicode.Scalar: String]
    /// The text of any other scalar, or `nil` to keep it as it is.
    package let otherwise: @Sendable (Unicode.Scalar) -> String?

    /// Creates a rule.
    /// - Parameters:
    ///   - replacements: the scalars replaced by a fixed text.
    ///   - otherwise: the text of a scalar not in `replacements`, or `nil` to keep it; by
    ///     default every such scalar is kept.
    package init(
        _ replacements: [Unicode.Scalar: String],
        otherwise: @escaping @Sendable (Unicode.Scalar) -> String? = { _ in nil }
    ) {
        self.replacements = replacements
        self.otherwise = otherwise
    }

    /// `text` with each scalar replaced by this rule.
    package func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replacement = replacements[scalar] ?? otherwise(scalar) {
                escaped += replacement
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `\` and `"` escaped with a backslash, and line feed, tab and carriage return as `\n`,
    /// `\t`, `\r`: the part that the double-quoted strings of Swift, YAML and JSON share. Give
    /// it the language's rule for the other control characters.
    package static func backslashed(controls: @escaping @Sendable (Unicode.Scalar) -> String?) -> TextEscaper
    {
        TextEscaper(["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"], otherwise: controls)
    }
}
