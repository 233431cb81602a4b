/// One change ``LenientJSONDecoder`` made to read a value as the type asked for: where, what
/// kind of change, the JSON it found and what it read it as.
///
/// `description` reads `$.n: "7" read as 7`, `$.score: "N/A" read as null`,
/// `$.tags: "a, b" read as ["a","b"]` (both values in compact JSON).
public struct JSONCoercion: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change was made.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A number written as a string (`"7"`, `"$1,299.99"`, `"85%"`) read as a number.
        case stringToNumber
        /// A null word (`"N/A"`, `"none"`, `""`, see ``LenientReading/nullWords``) read as `nil`
        /// for an optional.
        case nullWordToNil
        /// `"yes"`, `"no"`, `"true"`, `"y"`, `"0"`, ... read as a `Bool`.
        case stringToBool
        /// The number `1` or `0` read as a `Bool`.
        case numberToBool
        /// A single value where an array was expected, read as a one-element array.
        case singleValueToArray
        /// A comma-separated string where `[String]` was expected, split into its items.
        case commaSeparatedToArray
        /// A number with a fraction where an integer was expected, truncated toward zero.
        case floatTruncatedToInt
        /// A number where a string was expected, read as its literal text.
        case numberToString
        /// A boolean where a string was expected, read as `true` or `false`.
        case boolToString
        /// A number out of the target type's range (or not finite) read as `nil` for an
        /// optional.
        case outOfRangeToNil
        /// A string matching an enum's raw value only when case and surrounding spaces are
        /// ignored (the enum must be `CaseIterable`).
        case caseInsensitiveEnum
        /// A ``Confidence`` written as a percentage or outside `0...1` (`85`, `"85%"`, `1.5`,
        /// `-3`) read as a fraction in `0...1` (`0.85`, `0.85`, `0.015`, `0`).
        case normalizedConfidence
    }

    /// Where the value is.
    public let jsonPath: JSONPath
    /// The kind of change.
    public let kind: Kind
    /// The value as found in the JSON.
    public let from: JSONValue
    /// What it was read as, as JSON (`null` for `nil`).
    public let to: JSONValue

    /// Creates a coercion record.
    ///
    /// - Parameters:
    ///   - jsonPath: where the value is.
    ///   - kind: the kind of change.
    ///   - from: the value found.
    ///   - to: what it was read as (`.null` for `nil`).
    public init(jsonPath: JSONPath, kind: Kind, from: JSONValue, to: JSONValue) {
        self.jsonPath = jsonPath
        self.kind = kind
        self.from = from
        self.to = to
    }

    /// The location as text: `$.items[2].n`.
    public var path: String { jsonPath.description }

    /// `PATH: FROM read as TO`, both values in compact JSON: `$.n: "7" read as 7`.
    public var description: String {
        "\(path): \(from.compactText) read as \(to.compactText)"
    }
}

/// A member-name coding key made at run time (used for `super` and error paths).
struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}
