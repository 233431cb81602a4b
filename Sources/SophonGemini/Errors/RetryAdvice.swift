import Foundation

/// Google's retry advice in error messages ("Please retry in 36.5s."), which only a retryable
/// error may keep: a per-day quota does not come back in 36 seconds.
enum RetryAdvice {
    /// `message` without its "Please retry in N s" sentences (any case, `s` or `ms`), spaces
    /// around them collapsed.
    static func removed(from message: String) -> String {
        let pattern = #"\s*Please retry in [0-9]+(\.[0-9]+)?\s*m?s\.?"#
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
            return message
        }
        let range = NSRange(message.startIndex..., in: message)
        return expression.stringByReplacingMatches(in: message, range: range, withTemplate: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
