/// A `Decodable` type that adds descriptions and other facets to the schema
/// ``GeminiSchema/init(for:)`` derives from it (docs/library.md, "Schemas from types").
///
/// Both requirements have defaults (no description, no facets), so a type adopts the protocol
/// only for what it adds:
///
/// ```swift
/// struct Book: Decodable, GeminiSchemaDescribing {
///     let title: String
///     let pages: Int?
///     static let schemaFacets: [String: GeminiSchemaFacets] = ["pages": "approximate page count"]
/// }
/// ```
public protocol GeminiSchemaDescribing {
    /// The `description` of the type's own schema; `nil` for none.
    static var schemaDescription: String? { get }
    /// Facets per property, keyed by the property's JSON name (its `CodingKey` string). A name
    /// that is not a property of the type makes the derivation fail with
    /// ``GeminiSchemaDerivationError/Reason/unknownFacetProperty(_:)``.
    static var schemaFacets: [String: GeminiSchemaFacets] { get }
}

extension GeminiSchemaDescribing {
    /// No description.
    public static var schemaDescription: String? { nil }
    /// No facets.
    public static var schemaFacets: [String: GeminiSchemaFacets] { [:] }
}

/// A type that states its whole schema itself, for types a describing decoder cannot read
/// (a custom `init(from:)` that validates, a dictionary of free-form members):
/// ``GeminiSchema/init(for:)`` takes ``geminiSchema`` as given, wherever the type appears.
public protocol GeminiSchemaRepresentable {
    /// The type's schema, as sent in `responseSchema` or a function's `parameters`.
    static var geminiSchema: GeminiSchema { get }
}
