import SophonCore

extension GeminiSchema {
    /// An `OBJECT` schema whose properties keep the order written; `propertyOrdering` is filled
    /// with that order.
    /// - Parameters:
    ///   - properties: the members, in order (`["name": .string(), "age": .integer()]`).
    ///   - required: the names that must be present.
    ///   - description: guidance for the model.
    ///   - nullable: whether `null` is allowed instead of an object.
    public static func object(
        properties: KeyValuePairs<String, GeminiSchema>, required: [String],
        description: String? = nil, nullable: Bool? = nil
    ) -> GeminiSchema {
        let ordered = GeminiSchemaProperties(properties)
        return GeminiSchema(
            type: .object, description: description, nullable: nullable, properties: ordered,
            required: required, propertyOrdering: ordered.names)
    }

    /// A `STRING` schema.
    /// - Parameters:
    ///   - description: guidance for the model.
    ///   - format: `date-time` or `enum` (the formats the API documents for strings).
    ///   - values: the allowed values (`enum`).
    ///   - nullable: whether `null` is allowed.
    public static func string(
        description: String? = nil, format: String? = nil, enum values: [String]? = nil,
        nullable: Bool? = nil
    ) -> GeminiSchema {
        GeminiSchema(
            type: .string, format: format, description: description, nullable: nullable,
            enumValues: values)
    }

    /// An `INTEGER` schema, optionally bounded (inclusive).
    public static func integer(
        description: String? = nil, format: String? = nil, minimum: Double? = nil,
        maximum: Double? = nil, nullable: Bool? = nil
    ) -> GeminiSchema {
        GeminiSchema(
            type: .integer, format: format, description: description, nullable: nullable,
            minimum: minimum, maximum: maximum)
    }

    /// A `NUMBER` schema, optionally bounded (inclusive).
    public static func number(
        description: String? = nil, format: String? = nil, minimum: Double? = nil,
        maximum: Double? = nil, nullable: Bool? = nil
    ) -> GeminiSchema {
        GeminiSchema(
            type: .number, format: format, description: description, nullable: nullable,
            minimum: minimum, maximum: maximum)
    }

    /// A `BOOLEAN` schema.
    public static func boolean(description: String? = nil, nullable: Bool? = nil) -> GeminiSchema {
        GeminiSchema(type: .boolean, description: description, nullable: nullable)
    }

    /// An `ARRAY` schema of `items`, optionally with element-count bounds.
    public static func array(
        items: GeminiSchema, description: String? = nil, minItems: Int? = nil,
        maxItems: Int? = nil, nullable: Bool? = nil
    ) -> GeminiSchema {
        GeminiSchema(
            type: .array, description: description, nullable: nullable, items: items,
            minItems: minItems, maxItems: maxItems)
    }
}
