import Foundation

/// Builds the user-facing text of a ``GeminiError`` from the strings table: the one place
/// where error wording is produced.
struct GeminiErrorText {
    let error: GeminiError
    let table: GeminiLocalization

    var text: String {
        switch error {
        case .missingAPIKey: return table.string("error.missingAPIKey")
        case .invalidAPIKey(let message, let server):
            return table.string("error.invalidAPIKey", (server.map { "\($0.label): " } ?? "") + message)
        case .invalidModelID(let id): return table.string("error.invalidModelID", id)
        case .transport(let failure, let detail):
            return table.string("error.transport", table.string("transport.\(failure.rawValue)"), detail)
        case .http(let status, let apiStatus, let message, _):
            return table.string("error.http", String(status), apiStatus ?? "", message)
        case .rateLimited(let wait, let server):
            let summary =
                wait.map { table.string("error.rateLimited.wait", GeminiErrorText.seconds($0)) }
                ?? table.string("error.rateLimited")
            return summary + (server.map { " \($0)" } ?? "")
        case .quotaExhausted(let quotaId, let message):
            // Only a 429 (RPC status RESOURCE_EXHAUSTED) is read as an exhausted quota.
            return table.string(
                "error.quotaExhausted", quotaId ?? table.string("value.unknown"),
                "HTTP 429 RESOURCE_EXHAUSTED: " + message)
        case .modelRetired(let id, let server):
            return table.string("error.modelRetired", id) + (server.map { " \($0)" } ?? "")
        case .invalidRequest(let message, let violations, let server):
            let lines = violations.map {
                table.string("error.fieldViolation", $0.field ?? "", $0.description ?? "")
            }
            let summary = server.map {
                table.string("error.invalidRequest", "").trimmingCharacters(in: .whitespaces) + " \($0)"
            }
            return ([summary ?? table.string("error.invalidRequest", message)] + lines).joined(
                separator: "\n")
        case .promptBlocked(let reason, let message):
            let text = table.string("error.promptBlocked", reason?.rawValue ?? table.string("value.unknown"))
            return message.map { "\(text) \($0)" } ?? text
        case .contentBlocked(let reason, _): return table.string("error.contentBlocked", reason.rawValue)
        case .truncated: return table.string("error.truncated")
        case .emptyResponse: return table.string("error.emptyResponse")
        case .stoppedWithoutContent(let reason, let message):
            let text = table.string("error.stoppedWithoutContent", reason.rawValue)
            return message.map { "\(text) \($0)" } ?? text
        case .streamEndedEarly: return table.string("error.streamEndedEarly")
        case .decodingFailed(let reason, let excerpt):
            return table.string("error.decodingFailed", reason, excerpt)
        case .mediaTooLarge(let path, let bytes, let limit):
            return table.string("error.mediaTooLarge", path, String(bytes), String(limit))
        case .mediaUnreadable(let path, let reason):
            return table.string("error.mediaUnreadable", path, reason)
        case .toolCallFailed(let reason, let message):
            let text = table.string("error.toolCallFailed", reason.rawValue)
            return message.map { "\(text) \($0)" } ?? text
        }
    }

    /// Seconds with up to three decimals, trailing zeros dropped: `26`, `34.4`, `0.25`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
