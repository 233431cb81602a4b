import SophonCore

/// Masks text shaped like a Google API key, for descriptions of errors whose server text
/// may echo a key the client did not know to redact.
enum KeyShapeMask {
    /// `text` with anything shaped like a Google API key (`AIza` followed by 35 characters of
    /// `[0-9A-Za-z_-]`) replaced by its `SecretMask.mask`.
    static func maskLikelyKeys(in text: String) -> String {
        guard text.contains("AIza") else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "AIza") {
            result += rest[..<range.lowerBound]
            let tail = rest[range.upperBound...]
            let body = tail.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            if body.count >= 35 {
                result += SecretMask.mask("AIza" + body.prefix(35))
                rest = tail.dropFirst(35)
            } else {
                result += "AIza"
                rest = tail
            }
        }
        return result + rest
    }
}
