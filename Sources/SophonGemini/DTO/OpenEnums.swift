import SophonCore

/// Why a candidate stopped (`Candidate.finishReason`). Unknown values decode and keep their
/// raw string: Google adds new reasons over time.
///
/// Source: google.ai.generativelanguage.v1beta `Candidate.FinishReason`.
public struct FinishReason: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value, e.g. `STOP`.
    public var rawValue: String
    /// Wraps any wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// `FINISH_REASON_UNSPECIFIED`.
    public static let unspecified = FinishReason(rawValue: "FINISH_REASON_UNSPECIFIED")
    /// `STOP`: natural end or a stop sequence.
    public static let stop = FinishReason(rawValue: "STOP")
    /// `MAX_TOKENS`: the output token limit was reached (the text is truncated).
    public static let maxTokens = FinishReason(rawValue: "MAX_TOKENS")
    /// `SAFETY`: stopped by the safety filters.
    public static let safety = FinishReason(rawValue: "SAFETY")
    /// `RECITATION`: stopped for reciting training data.
    public static let recitation = FinishReason(rawValue: "RECITATION")
    /// `OTHER`.
    public static let other = FinishReason(rawValue: "OTHER")
    /// `LANGUAGE`: an unsupported language.
    public static let language = FinishReason(rawValue: "LANGUAGE")
    /// `BLOCKLIST`: a forbidden term.
    public static let blocklist = FinishReason(rawValue: "BLOCKLIST")
    /// `PROHIBITED_CONTENT`.
    public static let prohibitedContent = FinishReason(rawValue: "PROHIBITED_CONTENT")
    /// `SPII`: sensitive personally identifiable information.
    public static let spii = FinishReason(rawValue: "SPII")
    /// `MALFORMED_FUNCTION_CALL`.
    public static let malformedFunctionCall = FinishReason(rawValue: "MALFORMED_FUNCTION_CALL")
    /// `IMAGE_SAFETY`.
    public static let imageSafety = FinishReason(rawValue: "IMAGE_SAFETY")
    /// `UNEXPECTED_TOOL_CALL`: a tool call although the request enabled no tools.
    public static let unexpectedToolCall = FinishReason(rawValue: "UNEXPECTED_TOOL_CALL")
    /// `TOO_MANY_TOOL_CALLS`: the server stopped a run of tool calls.
    public static let tooManyToolCalls = FinishReason(rawValue: "TOO_MANY_TOOL_CALLS")

    /// Whether this reason is a failed tool use (`MALFORMED_FUNCTION_CALL`,
    /// `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`): a typed error, never retried.
    public var isToolFailure: Bool {
        [Self.malformedFunctionCall, .unexpectedToolCall, .tooManyToolCalls].contains(self)
    }

    /// Whether this reason means the content was blocked rather than finished or cut short:
    /// SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, IMAGE_SAFETY and the other
    /// `IMAGE_*` blocks.
    public var isBlocked: Bool {
        switch rawValue {
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY",
            "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION":
            true
        default: false
        }
    }
}

/// Why a prompt was blocked (`PromptFeedback.blockReason`); unknown values keep their raw
/// string. Source: google.ai.generativelanguage.v1beta `PromptFeedback.BlockReason`.
public struct BlockReason: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value, e.g. `SAFETY`.
    public var rawValue: String
    /// Wraps any wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// `BLOCK_REASON_UNSPECIFIED`.
    public static let unspecified = BlockReason(rawValue: "BLOCK_REASON_UNSPECIFIED")
    /// `SAFETY`.
    public static let safety = BlockReason(rawValue: "SAFETY")
    /// `OTHER`.
    public static let other = BlockReason(rawValue: "OTHER")
    /// `BLOCKLIST`.
    public static let blocklist = BlockReason(rawValue: "BLOCKLIST")
    /// `PROHIBITED_CONTENT`.
    public static let prohibitedContent = BlockReason(rawValue: "PROHIBITED_CONTENT")
    /// `IMAGE_SAFETY`.
    public static let imageSafety = BlockReason(rawValue: "IMAGE_SAFETY")
}

/// A safety rating's probability (`SafetyRating.probability`); unknown values keep their raw
/// string. Source: google.ai.generativelanguage.v1beta `SafetyRating.HarmProbability`.
public struct HarmProbability: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value, e.g. `NEGLIGIBLE`.
    public var rawValue: String
    /// Wraps any wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// `HARM_PROBABILITY_UNSPECIFIED`.
    public static let unspecified = HarmProbability(rawValue: "HARM_PROBABILITY_UNSPECIFIED")
    /// `NEGLIGIBLE`.
    public static let negligible = HarmProbability(rawValue: "NEGLIGIBLE")
    /// `LOW`.
    public static let low = HarmProbability(rawValue: "LOW")
    /// `MEDIUM`.
    public static let medium = HarmProbability(rawValue: "MEDIUM")
    /// `HIGH`.
    public static let high = HarmProbability(rawValue: "HIGH")
}

/// Stores an optional free-form `JSONValue` (SophonCore) inside a Codable DTO (tool declarations,
/// function-call arguments, grounding metadata): omitted when `nil`, decoded as is.
@propertyWrapper
public struct JSONField: Codable, Sendable, Hashable {
    /// The value, or `nil` when the field is absent.
    public var wrappedValue: JSONValue?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: JSONValue?) { self.wrappedValue = wrappedValue }

    /// Decodes the value (a JSON `null` becomes `.null`).
    public init(from decoder: any Decoder) throws {
        wrappedValue = try JSONValue(from: decoder)
    }

    /// Encodes the value; `nil` is skipped by the container extension below. The value goes
    /// through a single-value container, so `OrderedJSONEncoder` takes it as is (number
    /// literals kept).
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(wrappedValue ?? .null)
    }
}

extension KeyedDecodingContainer {
    /// A missing key gives a `nil` field instead of a `keyNotFound` error.
    public func decode(_ type: JSONField.Type, forKey key: Key) throws -> JSONField {
        try decodeIfPresent(type, forKey: key) ?? JSONField(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A `nil` field is omitted from the output.
    public mutating func encode(_ value: JSONField, forKey key: Key) throws {
        guard value.wrappedValue != nil else { return }
        try encodeIfPresent(value as JSONField?, forKey: key)
    }
}
