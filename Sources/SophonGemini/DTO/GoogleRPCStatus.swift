import Foundation

/// The error body of the Gemini API: `{"error": {"code", "message", "status", "details"}}`
/// (google.rpc.Status). Proxies and some stream paths wrap it in a one-element array;
/// ``parse(_:)`` accepts both.
package struct GoogleRPCErrorBody: Codable, Sendable, Hashable {
    /// The status object.
    package var error: GoogleRPCStatus

    /// Creates a body.
    package init(error: GoogleRPCStatus) { self.error = error }

    /// The status in `data`, or `nil` when `data` is not an error body (or a one-element
    /// array holding one).
    package static func parse(_ data: Data) -> GoogleRPCStatus? {
        let decoder = JSONDecoder()
        if let body = try? decoder.decode(GoogleRPCErrorBody.self, from: data) { return body.error }
        if let bodies = try? decoder.decode([GoogleRPCErrorBody].self, from: data), bodies.count == 1 {
            return bodies[0].error
        }
        return nil
    }
}

/// google.rpc.Status: an HTTP-like `code`, a canonical `status` (`RESOURCE_EXHAUSTED`), a
/// developer `message` and typed `details`.
public struct GoogleRPCStatus: Codable, Sendable, Hashable {
    /// The HTTP status code, e.g. 429.
    public var code: Int?
    /// The developer-facing message.
    public var message: String?
    /// The canonical status, e.g. `INVALID_ARGUMENT`.
    public var status: String?
    /// The details, each tagged with its `@type`.
    public var details: [GoogleRPCErrorDetail]?

    /// Creates a status.
    public init(
        code: Int? = nil, message: String? = nil, status: String? = nil,
        details: [GoogleRPCErrorDetail]? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.details = details
    }

    /// `ErrorInfo.reason` of the first ErrorInfo detail (e.g. `API_KEY_INVALID`).
    public var errorReason: String? { details?.first(where: { $0.reason != nil })?.reason }

    /// `RetryInfo.retryDelay` of the first RetryInfo detail, parsed.
    public var retryDelay: Duration? {
        details?.lazy.compactMap { $0.retryDelay.flatMap(ProtobufDuration.parse) }.first
    }

    /// The quota violations of every QuotaFailure detail.
    public var quotaViolations: [QuotaViolation] { (details ?? []).flatMap { $0.violations ?? [] } }

    /// The field violations of every BadRequest detail.
    public var fieldViolations: [FieldViolation] { (details ?? []).flatMap { $0.fieldViolations ?? [] } }
}

/// One entry of `details`: the union of the google.rpc detail messages the API sends
/// (ErrorInfo, RetryInfo, QuotaFailure, BadRequest, Help, LocalizedMessage, DebugInfo).
/// `type` says which; the fields of the other kinds are `nil`.
public struct GoogleRPCErrorDetail: Codable, Sendable, Hashable {
    /// The `@type` URL, e.g. `type.googleapis.com/google.rpc.RetryInfo`.
    public var type: String?
    /// ErrorInfo: the reason, e.g. `API_KEY_INVALID`, `SERVICE_DISABLED`.
    public var reason: String?
    /// ErrorInfo: the domain, e.g. `googleapis.com`.
    public var domain: String?
    /// ErrorInfo: metadata.
    public var metadata: [String: String]?
    /// LocalizedMessage: the locale, e.g. `en-US`.
    public var locale: String?
    /// LocalizedMessage: the message.
    public var message: String?
    /// DebugInfo: the detail (may echo the API key: mask before showing).
    public var detail: String?
    /// Help: links.
    public var links: [HelpLink]?
    /// QuotaFailure: violations.
    public var violations: [QuotaViolation]?
    /// RetryInfo: a protobuf Duration string, e.g. `26s`, `34.4s`, `0.250s`.
    public var retryDelay: String?
    /// BadRequest: field violations.
    public var fieldViolations: [FieldViolation]?

    enum CodingKeys: String, CodingKey {
        case type = "@type"
        case reason, domain, metadata, locale, message, detail, links, violations, retryDelay
        case fieldViolations
    }

    /// Creates a detail of the given `@type`.
    public init(
        type: String?, reason: String? = nil, retryDelay: String? = nil,
        violations: [QuotaViolation]? = nil, fieldViolations: [FieldViolation]? = nil,
        detail: String? = nil
    ) {
        self.type = type
        self.reason = reason
        self.retryDelay = retryDelay
        self.violations = violations
        self.fieldViolations = fieldViolations
        self.detail = detail
    }
}

/// google.rpc.Help.Link.
public struct HelpLink: Codable, Sendable, Hashable {
    /// What the link is about.
    public var description: String?
    /// The URL.
    public var url: String?
}

/// google.rpc.QuotaFailure.Violation.
public struct QuotaViolation: Codable, Sendable, Hashable {
    /// The metric, e.g. `generativelanguage.googleapis.com/generate_content_free_tier_requests`.
    public var quotaMetric: String?
    /// The quota ID, e.g. `GenerateRequestsPerDayPerProjectPerModel-FreeTier`.
    public var quotaId: String?
    /// Dimensions such as `model` and `location`.
    public var quotaDimensions: [String: String]?
    /// The limit, as a string.
    public var quotaValue: String?

    /// Creates a violation.
    public init(quotaMetric: String? = nil, quotaId: String?, quotaValue: String? = nil) {
        self.quotaMetric = quotaMetric
        self.quotaId = quotaId
        self.quotaValue = quotaValue
    }

    /// Whether this is a per-day quota (its ID contains `PerDay`), which a short wait won't reset.
    public var isPerDay: Bool { quotaId?.contains("PerDay") ?? false }
}

/// google.rpc.BadRequest.FieldViolation: `{field, description}` (snake_case field paths).
public struct FieldViolation: Codable, Sendable, Hashable {
    /// The field path, e.g. `generation_config.response_schema`.
    public var field: String?
    /// What is wrong with it.
    public var description: String?

    /// Creates a violation.
    public init(field: String?, description: String?) {
        self.field = field
        self.description = description
    }
}

/// Parses protobuf JSON Duration strings: `26s`, `34.4s`, `0.250s`, `-1s` (rejected).
package enum ProtobufDuration {
    /// The duration in `text`, or `nil` when it is not `<decimal>s` or is negative.
    package static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix("s") else { return nil }
        let number = trimmed.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1
        else { return nil }
        let pieces = number.split(separator: ".", omittingEmptySubsequences: false)
        guard let seconds = Int64(pieces[0].isEmpty ? "0" : pieces[0]) else { return nil }
        var attoseconds: Int64 = 0
        if pieces.count == 2 {
            let fraction = String(pieces[1].prefix(18))
            let padded = fraction + String(repeating: "0", count: 18 - fraction.count)
            guard let value = Int64(padded) else { return nil }
            attoseconds = value
        }
        return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }
}
