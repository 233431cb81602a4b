/// The `type` of a Gemini `Schema` (the API's `Type` enum: `STRING`, `NUMBER`, `INTEGER`,
/// `BOOLEAN`, `ARRAY`, `OBJECT`, `NULL`).
///
/// Unknown values are kept with their raw text in ``unknown(_:)``, so a schema written for a
/// newer API version survives a decode and encode unchanged. Known names are matched without
/// regard to case (`"string"` reads as ``string``) and always written in upper case.
public enum GeminiSchemaType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `STRING`: text.
    case string
    /// `NUMBER`: any JSON number.
    case number
    /// `INTEGER`: a JSON number with no fractional part.
    case integer
    /// `BOOLEAN`: `true` or `false`.
    case boolean
    /// `ARRAY`: a JSON array whose elements follow `items`.
    case array
    /// `OBJECT`: a JSON object whose members follow `properties`.
    case object
    /// `NULL`: the JSON `null`.
    case null
    /// A value this library does not know, kept as sent.
    case unknown(String)

    /// Every known type, in the API's order.
    public static let known: [GeminiSchemaType] = [
        .string, .number, .integer, .boolean, .array, .object, .null,
    ]

    /// Reads a raw value; known names match case-insensitively, anything else is ``unknown(_:)``.
    public init(rawValue: String) {
        switch rawValue.uppercased() {
        case "STRING": self = .string
        case "NUMBER": self = .number
        case "INTEGER": self = .integer
        case "BOOLEAN": self = .boolean
        case "ARRAY": self = .array
        case "OBJECT": self = .object
        case "NULL": self = .null
        default: self = .unknown(rawValue)
        }
    }

    /// The wire value: `STRING`, `NUMBER`, ... or the unknown raw text.
    public var rawValue: String {
        switch self {
        case .string: "STRING"
        case .number: "NUMBER"
        case .integer: "INTEGER"
        case .boolean: "BOOLEAN"
        case .array: "ARRAY"
        case .object: "OBJECT"
        case .null: "NULL"
        case .unknown(let raw): raw
        }
    }

    /// The lower-case name used in validation messages (`integer`, `string`, ...).
    public var description: String {
        switch self {
        case .unknown(let raw): raw
        default: rawValue.lowercased()
        }
    }

    /// Decodes the raw string; never fails on an unknown value.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(String.self))
    }

    /// Encodes ``rawValue`` as a string.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
