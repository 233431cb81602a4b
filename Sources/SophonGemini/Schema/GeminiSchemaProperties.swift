/// The `properties` of an object schema: named subschemas in a fixed order.
///
/// Swift dictionaries change their iteration order between runs, so schemas keep properties
/// in an array: the order of declaration (the type syntax, a JSON file, a dictionary literal),
/// or sorted by name when built from an unordered `Dictionary`. Names are unique: setting an
/// existing name replaces its schema in place.
public struct GeminiSchemaProperties: Sendable, Hashable, RandomAccessCollection,
    ExpressibleByDictionaryLiteral
{
    /// One property: its name and its schema.
    public struct Property: Sendable, Hashable {
        /// The property (JSON member) name.
        public var name: String
        /// The schema of the member's value.
        public var schema: GeminiSchema

        /// Creates a property.
        public init(name: String, schema: GeminiSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// The properties in order.
    public private(set) var entries: [Property]
    /// The position of each name in ``entries``, so a lookup by name does not scan them (a
    /// schema of thousands of properties reads in linear time).
    private var positions: [String: Int]

    /// An empty set of properties.
    public init() {
        entries = []
        positions = [:]
    }

    /// Properties in the given order; a repeated name keeps its first position and last schema.
    public init(_ properties: [Property]) {
        entries = []
        positions = [:]
        entries.reserveCapacity(properties.count)
        positions.reserveCapacity(properties.count)
        for property in properties { self[property.name] = property.schema }
    }

    /// Equal when the same names have equal schemas in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.entries == rhs.entries }

    /// Hashes the properties in order.
    public func hash(into hasher: inout Hasher) { hasher.combine(entries) }

    /// Properties from an unordered dictionary, sorted by name (so the order is deterministic).
    public init(_ dictionary: [String: GeminiSchema]) {
        self.init(dictionary.sorted { $0.key < $1.key }.map { Property(name: $0.key, schema: $0.value) })
    }

    /// Properties from ordered pairs (`KeyValuePairs` keeps the order written).
    public init(_ pairs: KeyValuePairs<String, GeminiSchema>) {
        self.init(pairs.map { Property(name: $0.key, schema: $0.value) })
    }

    /// Properties from a literal, in the order written.
    public init(dictionaryLiteral elements: (String, GeminiSchema)...) {
        self.init(elements.map { Property(name: $0.0, schema: $0.1) })
    }

    /// The index of the first property.
    public var startIndex: Int { entries.startIndex }
    /// One past the index of the last property.
    public var endIndex: Int { entries.endIndex }
    /// The property at `position` (must be a valid index).
    public subscript(position: Int) -> Property { entries[position] }

    /// The property names in order.
    public var names: [String] { entries.map(\.name) }

    /// The schema named `name`; setting `nil` removes it, setting a new name appends it.
    public subscript(name: String) -> GeminiSchema? {
        get { positions[name].map { entries[$0].schema } }
        set {
            switch (positions[name], newValue) {
            case (let index?, let schema?): entries[index].schema = schema
            case (let index?, nil):
                entries.remove(at: index)
                positions[name] = nil
                for later in index..<entries.count { positions[entries[later].name] = later }
            case (nil, let schema?):
                positions[name] = entries.count
                entries.append(Property(name: name, schema: schema))
            case (nil, nil): break
            }
        }
    }

    /// The properties ordered for output: first the names in `ordering` (those that exist, in
    /// that order), then the rest in stored order.
    /// - Parameter ordering: a `propertyOrdering` list, or `nil` for the stored order.
    public func ordered(by ordering: [String]?) -> [Property] {
        guard let ordering, !ordering.isEmpty else { return entries }
        if ordering.count == entries.count, zip(ordering, entries).allSatisfy({ $0 == $1.name }) {
            return entries  // The usual case: the ordering lists the properties as stored.
        }
        var result: [Property] = []
        var used = Set<String>()
        for name in ordering where !used.contains(name) {
            if let schema = self[name] {
                result.append(Property(name: name, schema: schema))
                used.insert(name)
            }
        }
        result += entries.filter { !used.contains($0.name) }
        return result
    }
}

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
