import Foundation

/// Masks secrets for display: the last four characters behind `••••` (`••••cD3f`).
///
/// Until SophonCore's `SecretMask` lands this is the one place doing it for SophonGemini.
public enum KeyMask {
    /// `••••` plus the last four characters of `secret` (only `••••` when it is shorter than 8).
    public static func mask(_ secret: String) -> String {
        secret.count < 8 ? "••••" : "••••" + String(secret.suffix(4))
    }

    /// `text` with every occurrence of each secret replaced by its masked form.
    public static func redact(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: mask(secret))
        }
        return result
    }

    /// `text` with anything shaped like a Google API key (`AIza` followed by 35 characters of
    /// `[0-9A-Za-z_-]`) masked.
    public static func maskLikelyKeys(in text: String) -> String {
        guard text.contains("AIza") else { return text }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "AIza") {
            result += rest[..<range.lowerBound]
            let tail = rest[range.upperBound...]
            let body = tail.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            if body.count >= 35 {
                let key = "AIza" + body.prefix(35)
                result += mask(String(key))
                rest = tail.dropFirst(35)
            } else {
                result += "AIza"
                rest = tail
            }
        }
        return result + rest
    }
}
