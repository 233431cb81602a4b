/// Hides secrets in text shown to people: logs, errors, `key show`, server messages that echo
/// the key (Google's invalid-key error carries it in its `DebugInfo` detail).
public enum SecretMask {
    /// The mask's fixed prefix: four bullets (U+2022), whatever the secret's length.
    public static let bullets = "••••"

    /// Secrets shorter than this many characters are masked whole: showing their last four
    /// would reveal too large a part of them.
    public static let minimumLengthToShowTail = 12

    /// A secret's mask: four bullets and its last four characters (`••••cD3f`), or only the
    /// bullets for a secret shorter than ``minimumLengthToShowTail``. The length is never shown.
    ///
    /// - Parameter secret: The secret, e.g. a 39-character Gemini API key.
    /// - Returns: The mask.
    public static func mask(_ secret: String) -> String {
        guard secret.count >= minimumLengthToShowTail else { return bullets }
        return bullets + String(secret.suffix(4))
    }

    /// Replaces every occurrence of each secret inside `text` with its ``mask(_:)``.
    ///
    /// Longer secrets are replaced first, so a secret that contains another is masked whole.
    /// Matching is by Unicode scalars (exact, no normalisation), so a secret is found even when
    /// the text around it would merge its last character into a grapheme cluster. Empty secrets
    /// are ignored.
    ///
    /// - Parameters:
    ///   - text: Arbitrary text.
    ///   - secrets: The secrets to hide.
    /// - Returns: The text with each secret replaced by its mask.
    public static func redact(_ text: String, secrets: [String]) -> String {
        // Cheap pre-filter: a secret whose first scalar is absent from the text cannot occur.
        let present = Set(text.unicodeScalars)
        let ordered = secrets.filter { $0.unicodeScalars.first.map(present.contains) ?? false }.sorted {
            $0.unicodeScalars.count > $1.unicodeScalars.count
        }
        guard !ordered.isEmpty else { return text }
        var scalars = text.unicodeScalars
        for secret in ordered {
            scalars = replacing(secret.unicodeScalars, with: mask(secret).unicodeScalars, in: scalars)
        }
        return String(scalars)
    }

    /// Replaces non-overlapping occurrences of `pattern`, scanning left to right.
    private static func replacing(
        _ pattern: String.UnicodeScalarView, with replacement: String.UnicodeScalarView,
        in scalars: String.UnicodeScalarView
    ) -> String.UnicodeScalarView {
        let needle = Array(pattern)
        let haystack = Array(scalars)
        guard let first = needle.first, needle.count <= haystack.count else { return scalars }
        var result = String.UnicodeScalarView()
        var index = 0
        while index < haystack.count {
            if haystack[index] == first, index + needle.count <= haystack.count,
                haystack[index..<(index + needle.count)].elementsEqual(needle)
            {
                result.append(contentsOf: replacement)
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return result
    }
}
