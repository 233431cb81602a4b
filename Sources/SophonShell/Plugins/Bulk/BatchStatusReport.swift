import Foundation
import SophonCore
import SophonGemini

/// A batch job as `batch status`, `batch wait` and `batch list` report it: a line a person reads
/// and the same facts as `--json` data.
enum BatchStatusReport {
    /// A job as `--json` data: `name`, `displayName`, `state`, the request counts as numbers
    /// (`requestCount`, `succeeded`, `failed`, `pending`) and `createTime` (RFC 3339, or null).
    static func data(_ batch: GeminiBatch) -> JSONValue {
        .object([
            JSONMember("name", .string(batch.name)),
            JSONMember("displayName", .string(batch.displayName)),
            JSONMember("state", .string(batch.state.rawValue)),
            JSONMember("requestCount", .number(JSONNumber(batch.requestCount))),
            JSONMember("succeeded", .number(JSONNumber(batch.successfulCount))),
            JSONMember("failed", .number(JSONNumber(batch.failedCount))),
            JSONMember("pending", .number(JSONNumber(batch.pendingCount))),
            JSONMember("createTime", batch.createTime.map(JSONValue.string) ?? .null),
        ])
    }

    /// `NAME (DISPLAY): STATE, N requests: S succeeded, F failed, P pending, age A`.
    static func line(_ batch: GeminiBatch) -> String {
        var line =
            "\(batch.name) (\(batch.displayName)): \(batch.state.rawValue), \(batch.requestCount) requests: "
            + "\(batch.successfulCount) succeeded, \(batch.failedCount) failed, \(batch.pendingCount) pending"
        if let created = batch.createTime.flatMap(Self.date) {
            let minutes = max(0, Int(Date().timeIntervalSince(created) / 60))
            line += ", age \(minutes / 60)h\(minutes % 60)m"
        }
        return line
    }

    private static func date(_ text: String) -> Date? {
        let trimmed = text.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)
        return ISO8601DateFormatter().date(from: trimmed)
    }
}
