import SophonCore

/// What a ``GeminiSchemaDescribing`` type adds to one property's derived schema: a
/// description, a format, bounds, a pattern, an example. Absent fields leave the derived
/// schema as it is.
///
/// A string literal is a facet with only a description: `["pages": "approximate page count"]`.
public struct GeminiSchemaFacets: Sendable, Hashable, ExpressibleByStringLiteral {
    /// `description`: guidance for the model.
    public var description: String?
    /// `title`.
    public var title: String?
    /// `format` (`date-time`, `int32`, `double`, ...): replaces the derived one.
    public var format: String?
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
    /// `minItems`: the least number of array elements.
    public var minItems: Int?
    /// `maxItems`: the most array elements.
    public var maxItems: Int?
    /// `example`: an example value.
    public var example: JSONValue?

    /// Creates facets; every field defaults to absent.
    public init(
        description: String? = nil, title: String? = nil, format: String? = nil, minimum: Double? = nil,
        maximum: Double? = nil, minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil,
        minItems: Int? = nil, maxItems: Int? = nil, example: JSONValue? = nil
    ) {
        self.description = description
        self.title = title
        self.format = format
        self.minimum = minimum
        self.maximum = maximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.minItems = minItems
        self.maxItems = maxItems
        self.example = example
    }

    /// Facets with only a description.
    public init(stringLiteral description: String) {
        self.init(description: description)
    }

    /// `schema` with these facets set over its own fields.
    public func applied(to schema: GeminiSchema) -> GeminiSchema {
        var result = schema
        result.description = description ?? result.description
        result.title = title ?? result.title
        result.format = format ?? result.format
        result.minimum = minimum ?? result.minimum
        result.maximum = maximum ?? result.maximum
        result.minLength = minLength ?? result.minLength
        result.maxLength = maxLength ?? result.maxLength
        result.pattern = pattern ?? result.pattern
        result.minItems = minItems ?? result.minItems
        result.maxItems = maxItems ?? result.maxItems
        result.example = example ?? result.example
        return result
    }
}
