/// A confidence as a fraction in `0...1`, read from what models write: `0.85`, `85`, `"85%"`.
///
/// Declare a property as `Confidence` where a `Double` would hold a confidence, and
/// ``LenientJSONDecoder`` reads it by ``LLMDecoding/confidence(_:)``'s rule: a string ending in
/// `%` is divided by 100 (`"85%"` -> 0.85); otherwise a value above 1 is read as a percentage
/// (`85` -> 0.85, `1.5` -> 0.015); the result is clamped to `0...1` (`-3` -> 0, `250` -> 1).
/// A value the rule changed is reported as a ``JSONCoercion/Kind/normalizedConfidence``
/// coercion (`$.confidence: 85 read as 0.85`); a numeric string it left alone (`"0.4"`) as
/// ``JSONCoercion/Kind/stringToNumber``. For an optional, `null`, null words and numbers out of
/// range are `nil`, as for any number.
///
/// ```swift
/// struct Verdict: Decodable {
///     let label: String
///     let confidence: Confidence
/// }
/// let decoded = try LenientJSONDecoder().decode(
///     Verdict.self, from: JSONValue(parsing: #"{"label": "spam", "confidence": "85%"}"#))
/// // decoded.value.confidence.value == 0.85
/// // decoded.coercions.map(\.description) == [#"$.confidence: "85%" read as 0.85"#]
/// ```
///
/// Other decoders (Foundation's `JSONDecoder`) read a number or a numeric string by the same
/// rule, without reporting. It encodes as the fraction, a JSON number; a schema derived from a
/// type that holds one (`GeminiSchema(for:)`) gives it the type `NUMBER`.
public struct Confidence: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The fraction, in `0...1`.
    public let value: Double

    /// A confidence from a number, by ``LLMDecoding/confidence(_:)``'s rule (`0.4` -> 0.4,
    /// `85` -> 0.85, `-3` -> 0); `nil` when `number` is not finite.
    /// - Parameter number: the confidence as written: a fraction or a percentage.
    public init?(_ number: Double) {
        guard let fraction = LLMDecoding.confidence(JSONValue.double(number)) else { return nil }
        value = fraction
    }

    /// A confidence already read as a fraction in `0...1`.
    init(fraction: Double) {
        value = fraction
    }

    /// Reads a JSON number or a numeric string by ``LLMDecoding/confidence(_:)``'s rule
    /// (``LenientJSONDecoder`` reads it itself, and reports the change).
    /// - Throws: `DecodingError.typeMismatch` when the value is neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let written: JSONValue
        if let number = try? container.decode(Double.self) {
            written = JSONValue.double(number) ?? .null
        } else if let text = try? container.decode(String.self) {
            written = .string(text)
        } else {
            written = .null
        }
        guard let fraction = LLMDecoding.confidence(written) else {
            throw DecodingError.typeMismatch(
                Confidence.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected a confidence (a number or a percentage)."))
        }
        value = fraction
    }

    /// Writes the fraction as a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// Orders by the fraction.
    public static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.value < rhs.value }

    /// The fraction as Swift prints a `Double`: `0.85`.
    public var description: String { "\(value)" }
}
