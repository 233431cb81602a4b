import Foundation
import SophonCore

/// Turns a reply that is not a success (a non-200 status, or a Google RPC error body) into the
/// typed error a caller sees, with the server's wait and whether the retry loop may retry it.
enum GeminiStatusClassifier {
    /// Maps a non-200 response to a typed error (docs/library.md, "Retry policies").
    /// - Parameters:
    ///   - status: the HTTP status (or the RPC error's code).
    ///   - headers: the response headers (lower-case names); `retry-after` is read.
    ///   - body: the response body (its Google RPC error, else an excerpt, is the message).
    ///   - modelID: the model the request named; a 404 about it is ``GeminiError/modelRetired(modelID:)``.
    ///   - rpc: the already parsed RPC error of `body`, if any.
    static func classify(
        status: Int, headers: [String: String], body: Data, modelID: String?, rpc: GoogleRPCStatus? = nil
    ) -> AttemptError {
        let rpc = rpc ?? GoogleRPCErrorBody.parse(body)
        let message = rpc?.message ?? ReplyExcerpt.excerpt(body)
        let serverWait = ServerWait.wait(headers: headers, status: rpc)
        let reason = rpc?.errorReason ?? ""
        switch status {
        case 400 where reason == "API_KEY_INVALID", 401:
            let debug = rpc?.details?.compactMap(\.detail).joined(separator: " ") ?? ""
            return AttemptError(
                .invalidAPIKey(
                    message: debug.isEmpty ? message : "\(message) (\(debug))",
                    server: GeminiServerStatus(status: status, apiStatus: rpc?.status, message: message)))
        case 403 where reason.hasPrefix("API_KEY") || rpc?.status == "PERMISSION_DENIED" && reason.isEmpty:
            return AttemptError(
                .invalidAPIKey(
                    message: message,
                    server: GeminiServerStatus(status: status, apiStatus: rpc?.status, message: message)))
        case 400:
            return AttemptError(
                .invalidRequest(
                    message: message, fieldViolations: rpc?.fieldViolations ?? [],
                    server: GeminiServerStatus(status: status, apiStatus: rpc?.status, message: message)))
        case 404 where modelID != nil:
            return AttemptError(
                .modelRetired(
                    modelID: modelID ?? "",
                    server: GeminiServerStatus(status: status, apiStatus: rpc?.status, message: message)))
        case 429:
            if let daily = rpc?.quotaViolations.first(where: \.isPerDay) {
                // Not retryable: Google's "Please retry in 36s." would be wrong advice.
                return AttemptError(
                    .quotaExhausted(quotaId: daily.quotaId, message: RetryAdvice.removed(from: message)))
            }
            return AttemptError(
                .rateLimited(
                    retryAfter: serverWait,
                    server: GeminiServerStatus(status: status, apiStatus: rpc?.status, message: message)),
                serverWait: serverWait)
        default:
            return AttemptError(
                .http(status: status, apiStatus: rpc?.status, message: message, details: rpc?.details ?? []),
                serverWait: serverWait)
        }
    }

    /// The typed error of a Batch job's per-item error (a Google RPC status whose `code` is read
    /// as the HTTP status), as a live call with that status gets it: a per-day quota is
    /// ``GeminiError/quotaExhausted(quotaId:message:)``, another 429 `rateLimited`, a 400
    /// `invalidRequest` (without the HTTP status line a live reply's has).
    static func classify(itemError: GoogleRPCStatus) -> GeminiError {
        var status = itemError
        if status.message == nil { status.message = "" }
        let error = classify(
            status: status.code ?? 500, headers: [:], body: Data(), modelID: nil, rpc: status
        ).error
        // The item's request was refused inside a 200 reply: no HTTP status line to show.
        if case .invalidRequest(let message, let violations, _) = error {
            return .invalidRequest(message: message, fieldViolations: violations)
        }
        return error
    }
}

/// A short, readable part of a reply body for error messages.
enum ReplyExcerpt {
    /// The first 200 characters of `data` as text, whitespace collapsed; an HTML page (a
    /// proxy's error page) is reduced to its title, or its text without tags.
    static func excerpt(_ data: Data, limit: Int = 200) -> String {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        guard text.drop(while: \.isWhitespace).first == "<" else {
            return TextExcerpt.collapsed(String(text.prefix(limit * 4)), limit: limit)
        }
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(
                of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            return "an HTML page: "
                + TextExcerpt.collapsed(String(text[open.upperBound..<close.lowerBound]), limit: limit)
        }
        var plain = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; plain.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { plain.append(character) }
        }
        return "an HTML page: " + TextExcerpt.collapsed(plain, limit: limit)
    }
}

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
