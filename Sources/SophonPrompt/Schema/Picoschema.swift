import SophonCore

/// Picoschema, Dotprompt's compact schema language, to JSON Schema (Dotprompt's `picoschema`):
///
/// - A string is a scalar type (`string`, `number`, `integer`, `boolean`, `null`, `any`), with an
///   optional description after a comma (`string, the name`), or the name of a named schema.
/// - An object maps `name` / `name?` / `name(array)` / `name(object)` / `name(enum)` (each with
///   `, description` inside the parentheses) to nested Picoschema; `?` makes the field optional
///   (its type becomes `[T, "null"]`), the others are `required`; `(*)` sets
///   `additionalProperties`; objects get `"additionalProperties": false`.
/// - A value that already is JSON Schema (a `type` that is a JSON Schema type, or `properties`)
///   is kept as is (with `"type": "object"` added beside `properties`).
public struct Picoschema: Sendable {
    /// Named schemas (name -> JSON Schema) a type name may refer to.
    public var schemas: [String: JSONValue]

    /// A converter that knows `schemas`.
    public init(schemas: [String: JSONValue] = [:]) { self.schemas = schemas }

    static let scalarTypes: Set<String> = ["string", "boolean", "null", "number", "integer", "any"]

    /// The JSON Schema of `schema`.
    /// - Throws: ``PicoschemaError`` for a type that is neither scalar nor named, or a
    ///   parenthesised type other than `array`, `object`, `enum`.
    public func jsonSchema(_ schema: JSONValue) throws(PicoschemaError) -> JSONValue {
        switch schema {
        case .null: return .null
        case .string(let text): return try scalar(text)
        case .object:
            if case .string(let type) = schema["type"] ?? .null,
                Self.scalarTypes.contains(type) || type == "object" || type == "array"
            {
                return schema
            }
            if case .object = schema["properties"] ?? .null {
                return Self.setting(schema, "type", .string("object"))
            }
            return try object(schema)
        default: return schema
        }
    }

    func scalar(_ text: String) throws(PicoschemaError) -> JSONValue {
        let (type, description) = Self.description(text)
        guard Self.scalarTypes.contains(type) else {
            guard let named = schemas[type] else { throw PicoschemaError(type: type) }
            return description.map { Self.setting(named, "description", .string($0)) } ?? named
        }
        var members: [JSONMember] = type == "any" ? [] : [JSONMember("type", .string(type))]
        if let description { members.append(JSONMember("description", .string(description))) }
        return .object(members)
    }

    func object(_ schema: JSONValue) throws(PicoschemaError) -> JSONValue {
        guard case .object(let fields) = schema else { return try jsonSchema(schema) }
        var properties: [JSONMember] = []
        var required: [JSONValue] = []
        var additional = JSONValue.bool(false)
        for field in fields {
            if field.key == "(*)" {
                additional = try value(field.value)
                continue
            }
            let open = field.key.firstIndex(of: "(")
            let name = open.map { String(field.key[..<$0]) } ?? field.key
            let optional = name.hasSuffix("?")
            let property = optional ? String(name.dropLast()) : name
            if !optional { required.append(.string(property)) }
            guard let open else {
                var nested = try value(field.value)
                if optional, case .string(let type) = nested["type"] ?? .null {
                    nested = Self.setting(nested, "type", .array([.string(type), .string("null")]))
                }
                properties.append(JSONMember(property, nested))
                continue
            }
            let inside = String(field.key[field.key.index(after: open)...].dropLast())
            let (type, description) = Self.description(inside)
            var result: JSONValue
            switch type {
            case "array":
                result = .object([
                    JSONMember(
                        "type", optional ? .array([.string("array"), .string("null")]) : .string("array")),
                    JSONMember("items", try value(field.value)),
                ])
            case "object":
                result = try value(field.value)
                if optional, let type = result["type"] {
                    result = Self.setting(result, "type", .array([type, .string("null")]))
                }
            case "enum":
                var values: [JSONValue] = []
                if case .array(let listed) = field.value { values = listed }
                if optional && !values.contains(.null) { values.append(.null) }
                result = .object([JSONMember("enum", .array(values))])
            default:
                throw PicoschemaError(type: type, parenthesized: true)
            }
            if let description { result = Self.setting(result, "description", .string(description)) }
            properties.append(JSONMember(property, result))
        }
        var members = [JSONMember("type", .string("object")), JSONMember("properties", .object(properties))]
        if !required.isEmpty { members.append(JSONMember("required", .array(required))) }
        members.append(JSONMember("additionalProperties", additional))
        return .object(members)
    }

    /// Nested Picoschema: a string is a type, an object a nested object.
    func value(_ value: JSONValue) throws(PicoschemaError) -> JSONValue {
        if case .string(let text) = value { return try scalar(text) }
        return try object(value)
    }

    /// `type, description` split at the first comma (both trimmed); no comma: the text as is.
    static func description(_ text: String) -> (String, String?) {
        guard let comma = text.firstIndex(of: ",") else { return (text, nil) }
        return (
            String(text[..<comma]).trimmingWhitespace(),
            String(text[text.index(after: comma)...]).trimmingWhitespace()
        )
    }

    /// `object` with member `key` set to `value` (replaced in place, else appended).
    static func setting(_ object: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }
}

/// A Picoschema type Sophon does not know (not scalar, not a named schema), or a parenthesised
/// type other than `array`, `object`, `enum`.
public struct PicoschemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The type as written.
    public var type: String
    /// Whether it was inside parentheses (`name(type)`).
    public var parenthesized = false

    /// The message.
    public var description: String {
        parenthesized
            ? "Picoschema: parenthetical types must be 'object', 'array' or 'enum', got '\(type)'"
            : "Picoschema: unknown type '\(type)'"
    }
}
