import Foundation
import SophonCore

/// The error body of the Interactions API, `{"error": {"code": "invalid_request", "message":
/// ".."}}`, whose `code` is a string (gemini-wire-format-3.md §1.14), turned into the same
/// ``GeminiError`` a generateContent error of that HTTP status becomes: the string code is
/// the error's API status (`apiStatus`), the HTTP status drives the case (400
/// `invalidRequest`, 429 `rateLimited`, 5xx `http`, ...). A google.rpc body (a key refused
/// before the API is reached) is read as generateContent's.
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
        let rpc = GoogleRPCStatus(code: status, message: message, status: code)
        return GeminiStatusClassifier.classify(
            status: status, headers: headers, body: body, modelID: nil, rpc: rpc)
    }

    /// The typed error of a stream's `error` event: its string code read as the HTTP status
    /// it stands for (unknown codes as 500).
    static func classify(event error: GeminiInteractionError) -> AttemptError {
        let statuses = [
            "invalid_request": 400, "invalid_argument": 400, "unauthenticated": 401, "permission_denied": 403,
            "not_found": 404, "conflict": 409, "resource_exhausted": 429, "rate_limit_exceeded": 429,
            "internal": 500, "unavailable": 503, "deadline_exceeded": 504,
        ]
        let status = statuses[error.code.lowercased()] ?? Int(error.code) ?? 500
        let rpc = GoogleRPCStatus(code: status, message: error.message, status: error.code)
        return GeminiStatusClassifier.classify(
            status: status, headers: [:], body: Data(), modelID: nil, rpc: rpc)
    }
}
