import Foundation
import SophonCore

extension GeminiSchema {
    /// Derives the schema of a `Decodable` type by decoding it once with a describing decoder
    /// (docs/library.md, "Schemas from types"):
    /// - each property the type decodes, in decoding order (for synthesized conformances, the
    ///   order of declaration), with `propertyOrdering` set to that order; a property read with
    ///   `decodeIfPresent` (an optional) is left out of `required`;
    /// - `String`, `URL`, `UUID` as `STRING`; `Bool` as `BOOLEAN`; every integer type as
    ///   `INTEGER`; `Double`, `Float`, `Decimal` as `NUMBER`; `Date` as `STRING` with format
    ///   `date-time` (ISO 8601, which SophonCore's lenient decoder reads);
    /// - arrays and sets as `ARRAY` of their element; nested types as nested `OBJECT`s;
    ///   an optional inside an array as `nullable`;
    /// - a `CaseIterable` enum with `String` raw values as a `STRING` with `enum` (its raw
    ///   values in case order);
    /// - a ``GeminiSchemaDescribing`` type's description and facets; a
    ///   ``GeminiSchemaRepresentable`` type's own schema, as given.
    ///
    /// - Parameter type: the type, as passed to
    ///   ``GeminiAPIClient/generateStructured(_:label:prompt:parts:model:systemInstruction:generationConfig:retryPolicy:allowPartial:)``.
    /// - Throws: ``GeminiSchemaDerivationError`` naming the property path of a dictionary, a
    ///   recursive type, an enum without string raw values, a type with no properties, a facet
    ///   for a property that does not exist, or a type whose `init(from:)` refuses placeholder
    ///   values.
    public init<T: Decodable>(for type: T.Type) throws(GeminiSchemaDerivationError) {
        do {
            self = try SchemaDescriber().describe(type, at: []).schema
        } catch let error as GeminiSchemaDerivationError {
            throw error
        } catch {
            throw GeminiSchemaDerivationError(
                path: "$", typeName: String(describing: type),
                reason: .refusedPlaceholder(StructuredReplyDecoder.describe(error)))
        }
    }
}

/// Describes types for ``GeminiSchema/init(for:)``: scalars and enums directly, everything else
/// by running the type's `init(from:)` against a ``SchemaDescribingDecoder``.
final class SchemaDescriber {
    /// The types being described, outermost first: a type met again is recursive.
    private var stack: [ObjectIdentifier] = []

    /// The schema of `type` and a placeholder value of it (for the enclosing `init(from:)`).
    func describe<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> (
        schema: GeminiSchema, value: T
    ) {
        if let representable = type as? any GeminiSchemaRepresentable.Type {
            let schema = representable.geminiSchema
            do {
                return (schema, try LenientJSONDecoder().decode(T.self, from: schema.placeholderValue).value)
            } catch {
                throw failure(path, type, .refusedPlaceholder(StructuredReplyDecoder.describe(error)))
            }
        }
        // The scalar's placeholder has type T: `scalar` is keyed by T's identity.
        if let scalar = Self.scalar(type) { return (scalar.schema, scalar.value as! T) }
        if let optional = type as? any DescribableOptional.Type {
            var (schema, value) = try optional.describeWrapped(self, at: path)
            schema.nullable = true
            return (schema, value as! T)  // describeWrapped returns an Optional<Wrapped> == T.
        }
        if type is any DescribableDictionary.Type { throw failure(path, type, .dictionary) }
        if let enumeration = type as? any CaseIterable.Type {
            return try describeEnum(enumeration, as: type, at: path)
        }
        let identity = ObjectIdentifier(type)
        guard !stack.contains(identity) else { throw failure(path, type, .recursive) }
        stack.append(identity)
        defer { stack.removeLast() }
        let decoder = SchemaDescribingDecoder(describer: self, codingPath: path)
        let value: T
        do {
            value = try T(from: decoder)
        } catch let error as GeminiSchemaDerivationError {
            throw error
        } catch {
            throw failure(path, type, .refusedPlaceholder(StructuredReplyDecoder.describe(error)))
        }
        guard var schema = decoder.node?.schema else { throw failure(path, type, .noProperties) }
        if schema.type == .object, schema.properties?.isEmpty ?? true {
            throw failure(path, type, .noProperties)
        }
        if let described = type as? any GeminiSchemaDescribing.Type {
            schema.description = described.schemaDescription ?? schema.description
            for (name, facets) in described.schemaFacets.sorted(by: { $0.key < $1.key }) {
                guard let property = schema.properties?[name] else {
                    throw failure(path, type, .unknownFacetProperty(name))
                }
                schema.properties?[name] = facets.applied(to: property)
            }
        }
        return (schema, value)
    }

    /// A `CaseIterable` enum: its `String` raw values as a string `enum`, its first case as
    /// the placeholder.
    private func describeEnum<T>(
        _ enumeration: any CaseIterable.Type, as type: T.Type, at path: [any CodingKey]
    )
        throws -> (schema: GeminiSchema, value: T)
    {
        let cases = Self.allCases(of: enumeration)
        let raw = cases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
        guard let first = cases.first as? T, raw.count == cases.count, !raw.isEmpty else {
            throw failure(path, type, .nonStringEnum)
        }
        return (.string(enum: raw), first)
    }

    private static func allCases<E: CaseIterable>(of type: E.Type) -> [Any] { Array(E.allCases) }

    /// The schema and placeholder of a standard scalar, or `nil`.
    static func scalar(_ type: Any.Type) -> (schema: GeminiSchema, value: Any)? {
        switch type {
        case is String.Type: (.string(), "")
        case is Bool.Type: (.boolean(), false)
        case is Double.Type: (.number(), 0.0)
        case is Float.Type: (.number(), Float(0))
        case is Decimal.Type: (.number(), Decimal(0))
        case is Date.Type: (.string(format: "date-time"), Date(timeIntervalSinceReferenceDate: 0))
        case is URL.Type: (.string(), URL(string: "https://example.com")!)  // A valid literal.
        case is UUID.Type: (.string(), UUID())
        case let integer as any FixedWidthInteger.Type: (.integer(), integer.zero)
        default: nil
        }
    }

    func failure(_ path: [any CodingKey], _ type: Any.Type, _ reason: GeminiSchemaDerivationError.Reason)
        -> GeminiSchemaDerivationError
    {
        GeminiSchemaDerivationError(
            path: StructuredReplyDecoder.path(path), typeName: String(describing: type), reason: reason)
    }
}

/// `Optional`, recognised without knowing its `Wrapped` type.
protocol DescribableOptional {
    /// The schema of the wrapped type and `Optional.some(placeholder)`.
    static func describeWrapped(_ describer: SchemaDescriber, at path: [any CodingKey]) throws
        -> (schema: GeminiSchema, value: Any)
}

extension Optional: DescribableOptional where Wrapped: Decodable {
    static func describeWrapped(_ describer: SchemaDescriber, at path: [any CodingKey]) throws
        -> (schema: GeminiSchema, value: Any)
    {
        let (schema, value) = try describer.describe(Wrapped.self, at: path)
        return (schema, Wrapped?.some(value) as Any)
    }
}

/// `Dictionary`, recognised without knowing its key and value types.
protocol DescribableDictionary {}
extension Dictionary: DescribableDictionary {}

extension GeminiSchema {
    /// A value that fits the schema, for decoding a ``GeminiSchemaRepresentable`` type's
    /// placeholder: its `example` when it has one; else every property present, the first
    /// `enum` value, the least allowed number.
    var placeholderValue: JSONValue {
        if let example { return example }
        if let first = anyOf?.first { return first.placeholderValue }
        switch type {
        case .object:
            return .object(
                (properties ?? GeminiSchemaProperties()).map {
                    JSONMember($0.name, $0.schema.placeholderValue)
                })
        case .array:
            let element = items?.placeholderValue ?? .null
            return .array(Array(repeating: element, count: max(minItems ?? 0, 0)))
        case .string:
            if let first = enumValues?.first { return .string(first) }
            if format == "date-time" { return .string("2001-01-01T00:00:00Z") }
            return .string(String(repeating: "a", count: max(minLength ?? 0, 0)))
        case .integer, .number:
            let least = minimum ?? 0
            return JSONValue.double(type == .integer ? least.rounded(.up) : least) ?? .null
        case .boolean: return .bool(false)
        default: return .null
        }
    }
}

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
