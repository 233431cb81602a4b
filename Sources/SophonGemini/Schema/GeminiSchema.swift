/// Placeholder for the Gemini response schema; replaced wholesale by the schema helper.
///
/// Only the agreed members exist here: Codable plus the static factories below.
public struct GeminiSchema: Codable, Sendable, Hashable {
    /// The API type name (`OBJECT`, `STRING`, ...).
    public var type: String
    /// Object properties in declaration order.
    public var properties: [Property]?
    /// Required property names.
    public var required: [String]?
    /// Array element schema.
    public var items: [GeminiSchema]?

    /// One named property of an object schema.
    public struct Property: Codable, Sendable, Hashable {
        /// The property name.
        public var name: String
        /// The property schema.
        public var schema: GeminiSchema
    }

    /// An object schema with properties in the given order.
    public static func object(properties: KeyValuePairs<String, GeminiSchema>, required: [String])
        -> GeminiSchema
    {
        GeminiSchema(
            type: "OBJECT", properties: properties.map { Property(name: $0.key, schema: $0.value) },
            required: required, items: nil)
    }
    /// A string schema.
    public static func string() -> GeminiSchema { GeminiSchema(type: "STRING") }
    /// An integer schema.
    public static func integer() -> GeminiSchema { GeminiSchema(type: "INTEGER") }
    /// A number schema.
    public static func number() -> GeminiSchema { GeminiSchema(type: "NUMBER") }
    /// A boolean schema.
    public static func boolean() -> GeminiSchema { GeminiSchema(type: "BOOLEAN") }
    /// An array schema.
    public static func array(items: GeminiSchema) -> GeminiSchema {
        GeminiSchema(type: "ARRAY", items: [items])
    }

    init(
        type: String, properties: [Property]? = nil, required: [String]? = nil,
        items: [GeminiSchema]? = nil
    ) {
        self.type = type
        self.properties = properties
        self.required = required
        self.items = items
    }
}
