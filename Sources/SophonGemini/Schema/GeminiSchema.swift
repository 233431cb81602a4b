import SophonCore

/// A Gemini `Schema` (the OpenAPI subset of `generationConfig.responseSchema`), with every
/// field the API accepts (source: the Gemini API
/// reference, `Schema`).
///
/// Build one with the factories (``object(properties:required:description:nullable:)``,
/// ``string(description:format:enum:nullable:)``, ...), the type syntax
/// (``GeminiSchema/parseTypeSyntax(_:)``), `llm`'s concise syntax
/// (``GeminiSchema/parseConciseSyntax(_:)``), a Gemini Schema JSON value
/// (``init(jsonValue:strict:path:)``) or a JSON Schema (``JSONSchemaConverter``).
///
/// Output is byte-stable: ``jsonValue`` writes the keys of each schema object in one fixed order
/// (``encodingKeyOrder``) and properties in `propertyOrdering` order when given, else in stored
/// (declaration) order.
public struct GeminiSchema: Sendable, Hashable {
    /// `type`: the kind of value.
    public var type: GeminiSchemaType?
    /// `format`: a format hint (`date-time` and `enum` for strings, `int32`/`int64`,
    /// `float`/`double`).
    public var format: String?
    /// `title`.
    public var title: String?
    /// `description`: guidance for the model.
    public var description: String?
    /// `nullable`: whether `null` is allowed in place of the value.
    public var nullable: Bool?
    /// `enum`: the allowed values (strings only, as the API requires).
    public var enumValues: [String]?
    /// `items` storage; an array gives the recursion its indirection.
    private var itemsStorage: [GeminiSchema]
    /// `minItems`: the least number of array elements.
    public var minItems: Int?
    /// `maxItems`: the most array elements.
    public var maxItems: Int?
    /// `properties`: the members of an object, in order.
    public var properties: GeminiSchemaProperties?
    /// `required`: the property names that must be present.
    public var required: [String]?
    /// `minProperties`: the least number of members.
    public var minProperties: Int?
    /// `maxProperties`: the most members.
    public var maxProperties: Int?
    /// `minimum`: the least numeric value (inclusive).
    public var minimum: Double?
    /// `maximum`: the greatest numeric value (inclusive).
    public var maximum: Double?
    /// `minLength`: the least string length, in characters.
    public var minLength: Int?
    /// `maxLength`: the greatest string length, in characters.
    public var maxLength: Int?
    /// `pattern`: a regular expression strings must match.
    public var pattern: String?
    /// `example`: an example value.
    public var example: JSONValue?
    /// `anyOf`: the value matches at least one of these (the API wants it as the only field).
    public var anyOf: [GeminiSchema]?
    /// `propertyOrdering`: the order the model should write properties in (Gemini 2.0 needs it).
    public var propertyOrdering: [String]?
    /// `default`: a default value (the API ignores it).
    public var defaultValue: JSONValue?

    /// `items`: the schema of each array element.
    public var items: GeminiSchema? {
        get { itemsStorage.first }
        set { itemsStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a schema; every field defaults to absent.
    public init(
        type: GeminiSchemaType? = nil, format: String? = nil, title: String? = nil,
        description: String? = nil, nullable: Bool? = nil, enumValues: [String]? = nil,
        items: GeminiSchema? = nil, minItems: Int? = nil, maxItems: Int? = nil,
        properties: GeminiSchemaProperties? = nil, required: [String]? = nil,
        minProperties: Int? = nil, maxProperties: Int? = nil, minimum: Double? = nil,
        maximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, example: JSONValue? = nil, anyOf: [GeminiSchema]? = nil,
        propertyOrdering: [String]? = nil, defaultValue: JSONValue? = nil
    ) {
        self.type = type
        self.format = format
        self.title = title
        self.description = description
        self.nullable = nullable
        self.enumValues = enumValues
        self.itemsStorage = items.map { [$0] } ?? []
        self.minItems = minItems
        self.maxItems = maxItems
        self.properties = properties
        self.required = required
        self.minProperties = minProperties
        self.maxProperties = maxProperties
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.example = example
        self.anyOf = anyOf
        self.propertyOrdering = propertyOrdering
        self.defaultValue = defaultValue
    }

    /// The order in which ``jsonValue`` writes the keys of a schema object.
    public static let encodingKeyOrder: [String] = [
        "type", "format", "title", "description", "nullable", "enum", "minimum", "maximum",
        "minLength", "maxLength", "pattern", "items", "minItems", "maxItems", "properties",
        "required", "propertyOrdering", "minProperties", "maxProperties", "anyOf", "example",
        "default",
    ]

    /// A copy whose object schemas (this one and every nested one) have `propertyOrdering` set
    /// to their property order where it was absent: what the type syntax and JSON files do, so
    /// that models that need the ordering (Gemini 2.0) write members in declaration order.
    public func fillingPropertyOrdering() -> GeminiSchema {
        var copy = self
        if let properties = copy.properties {
            var filled = GeminiSchemaProperties()
            for property in properties {
                filled[property.name] = property.schema.fillingPropertyOrdering()
            }
            copy.properties = filled
            if copy.propertyOrdering == nil, !filled.isEmpty { copy.propertyOrdering = filled.names }
        }
        copy.items = copy.items?.fillingPropertyOrdering()
        copy.anyOf = copy.anyOf?.map { $0.fillingPropertyOrdering() }
        return copy
    }
}
