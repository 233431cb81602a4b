import Foundation
import SophonCore

/// The error body of the Interactions API, `{"error": {"code": "invalid_request", "message":
/// ".."}}`, whose `code` is a string (gemini-wire-format-3.md §1.14; the codes and their HTTP
/// statuses: Google's "API errors" page, https://ai.google.dev/gemini-api/docs/api-errors),
/// turned into the same ``GeminiError`` a generateContent error of that HTTP status becomes:
/// the string code is the error's API status (`apiStatus`), the HTTP status drives the case
/// (400 `invalidRequest`, 401 `invalidAPIKey`, 429 `rateLimited`, 5xx `http`, ...), except
/// `quota_exceeded` (the daily quota), which is ``GeminiError/quotaExhausted(quotaId:message:)``
/// and never retried. A google.rpc body (a key refused before the API is reached) is read as
/// generateContent's.
enum GeminiInteractionErrorBody {
    /// `(code, message)` of an Interactions error body, else `nil`.
    static func parse(_ data: Data) -> (code: String, message: String)? {
        guard let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
            let error = value["error"], let code = error["code"]?.stringValue
        else { return nil }
        return (code, error["message"]?.stringValue ?? "")
    }

    /// The typed error of a non-200 reply.
    static func classify(status: Int, headers: [String: String], body: Data) -> AttemptError {
        guard let (code, message) = parse(body) else {
            return GeminiStatusClassifier.classify(status: status, headers: headers, body: body, modelID: nil)
        }
        if code == "quota_exceeded" { return AttemptError(.quotaExhausted(quotaId: nil, message: message)) }
        let rpc = GoogleRPCStatus(code: status, message: message, status: code)
        return GeminiStatusClassifier.classify(
            status: status, headers: headers, body: body, modelID: nil, rpc: rpc)
    }

    /// The typed error of a stream's `error` event: its string code read as the HTTP status
    /// it stands for (unknown codes as 500).
    static func classify(event error: GeminiInteractionError) -> AttemptError {
        let statuses = [
            "invalid_request": 400, "failed_precondition": 400, "parameter_unknown": 400,
            "invalid_argument": 400,
            "authentication": 401, "unauthenticated": 401, "payment_required": 402, "permission_denied": 403,
            "not_found": 404, "model_not_found": 404, "conflict": 409, "out_of_range": 416,
            "rate_limit_exceeded": 429, "quota_exceeded": 429, "resource_exhausted": 429, "cancelled": 499,
            "internal": 500, "unavailable": 503, "deadline_exceeded": 504,
        ]
        if error.code.lowercased() == "quota_exceeded" {
            return AttemptError(.quotaExhausted(quotaId: nil, message: error.message))
        }
        let status = statuses[error.code.lowercased()] ?? Int(error.code) ?? 500
        let rpc = GoogleRPCStatus(code: status, message: error.message, status: error.code)
        return GeminiStatusClassifier.classify(
            status: status, headers: [:], body: Data(), modelID: nil, rpc: rpc)
    }
}
