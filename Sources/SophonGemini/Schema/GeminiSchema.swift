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

extension GeminiSchema: Codable {
    /// Encodes the schema as ``jsonValue`` does.
    ///
    /// Keyed containers of Foundation's `JSONEncoder` on Linux do not keep insertion order
    /// (their object storage is a dictionary): for byte-stable text use ``jsonValue`` with
    /// `compactText`/`prettyText`, or set `outputFormatting = .sortedKeys` (properties then go
    /// out sorted; `propertyOrdering` still carries the intended order).
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    /// Decodes Gemini Schema JSON, ignoring keys it does not know (forward compatibility).
    ///
    /// A `Decoder` does not report the order of object keys, so properties are read sorted by
    /// name; `propertyOrdering`, when present, still sets the output order. To keep a file's
    /// order, parse the text to a `JSONValue` and use ``init(jsonValue:strict:path:)``.
    /// - Throws: `DecodingError.dataCorrupted` with the ``GeminiSchemaError`` description when
    ///   a field has the wrong kind of value.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(jsonValue: value, strict: false)
        } catch let error as GeminiSchemaError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description,
                    underlyingError: error))
        }
    }
}

extension GeminiSchema {
    /// Parses a schema SPEC as the shell's `schema` command does: text starting with `{` or `[`
    /// (after whitespace) is the type syntax (``parseTypeSyntax(_:)``), anything else is `llm`'s
    /// concise syntax (``parseConciseSyntax(_:)``).
    /// - Throws: ``GeminiSchemaSyntaxError`` with the line and column of the first mistake.
    public static func parseSpec(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        let first = text.first { !$0.isWhitespace }
        if first == "{" || first == "[" { return try parseTypeSyntax(text) }
        return try parseConciseSyntax(text)
    }

    /// Parses the type syntax of docs/commands.md:
    /// `{ title: string, year: integer, rating?: number "0-10", tags: [string],
    /// status: "draft" | "final", author: { name: string } }`.
    ///
    /// - Properties are separated by `,` or line breaks; `name?` makes one optional (left out
    ///   of `required`); names are words of letters, digits, `_` and `-`, or quoted.
    /// - Types: `string`, `integer`, `number`, `boolean` (aliases `str`, `int`, `float`,
    ///   `double`, `bool`), `[T]` for arrays, `{ ... }` for objects, `"a" | "b"` for a string
    ///   enum; `T | null` makes a type nullable.
    /// - A quoted string after a type, on the same line, is its description.
    /// - Objects get `propertyOrdering` in the order written; empty objects are refused.
    /// - Throws: ``GeminiSchemaSyntaxError`` (`expected ':' after property name at column 12`).
    public static func parseTypeSyntax(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        var parser = SchemaTypeSyntaxParser(text)
        return try parser.parseSpec()
    }

    /// Parses `llm`'s concise syntax, `name, age int, bio: a short bio`, into an object whose
    /// fields are all required: fields separated by commas (or by line breaks when there are
    /// any), each `NAME [TYPE] [: DESCRIPTION]`, TYPE one of `str` (default), `int`, `float`,
    /// `bool` (or `string`, `integer`, `number`, `boolean`).
    /// - Throws: ``GeminiSchemaSyntaxError`` for an unknown type, a word after the type, a
    ///   repeated field or an empty spec.
    public static func parseConciseSyntax(_ text: String) throws(GeminiSchemaSyntaxError) -> GeminiSchema {
        try SchemaConciseSyntaxParser(text).parse()
    }
}
