import SophonCore

extension GeminiSchema {
    /// The schema as Gemini Schema JSON: keys in ``encodingKeyOrder``, properties in
    /// `propertyOrdering` order when given (then any others in stored order), absent fields
    /// omitted. Print it with `compactText` or `prettyText` for byte-stable text.
    public var jsonValue: JSONValue {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONMember(key, value)) }
        }
        add("type", type.map { .string($0.rawValue) })
        add("format", format.map(JSONValue.string))
        add("title", title.map(JSONValue.string))
        add("description", description.map(JSONValue.string))
        add("nullable", nullable.map(JSONValue.bool))
        add("enum", enumValues.map { .array($0.map(JSONValue.string)) })
        members += constraintMembers(nested: \.jsonValue)
        add("anyOf", anyOf.map { .array($0.map(\.jsonValue)) })
        add("example", example)
        add("default", defaultValue)
        return .object(members)
    }

    /// The members from `minimum` to `maxProperties`, in that order, absent fields omitted:
    /// the run ``jsonValue`` and ``jsonSchemaValue`` share. `nested` writes a child schema
    /// (`items`, each property) in the same language as its parent.
    func constraintMembers(nested: (GeminiSchema) -> JSONValue) -> [JSONMember] {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONMember(key, value)) }
        }
        add("minimum", minimum.flatMap(JSONValue.double))
        add("maximum", maximum.flatMap(JSONValue.double))
        add("minLength", minLength.map(JSONValue.integer))
        add("maxLength", maxLength.map(JSONValue.integer))
        add("pattern", pattern.map(JSONValue.string))
        add("items", items.map(nested))
        add("minItems", minItems.map(JSONValue.integer))
        add("maxItems", maxItems.map(JSONValue.integer))
        add(
            "properties",
            properties.map { properties in
                .object(
                    properties.ordered(by: propertyOrdering).map { JSONMember($0.name, nested($0.schema)) })
            })
        add("required", required.map { .array($0.map(JSONValue.string)) })
        add("propertyOrdering", propertyOrdering.map { .array($0.map(JSONValue.string)) })
        add("minProperties", minProperties.map(JSONValue.integer))
        add("maxProperties", maxProperties.map(JSONValue.integer))
        return members
    }

    /// Reads Gemini Schema JSON. Properties keep the document's order; `type` names match
    /// case-insensitively; integer fields also accept decimal strings (proto3 JSON writes int64
    /// as a string).
    /// - Parameters:
    ///   - jsonValue: a schema object.
    ///   - strict: when `true` (the default), a key Gemini Schema does not have is an error;
    ///     when `false` it is ignored (forward compatibility with newer API fields).
    ///   - path: the JSON path of `jsonValue`, for error messages.
    /// - Throws: ``GeminiSchemaError/invalidValue(path:expected:)`` for a field of the wrong
    ///   kind, ``GeminiSchemaError/unknownKeyword(path:keyword:)`` for an unknown key (strict).
    ///   ``GeminiSchemaError/unsupported(path:reason:)`` past ``maximumDepth`` levels of nesting.
    public init(jsonValue: JSONValue, strict: Bool = true, path: String = "$") throws {
        try self.init(jsonValue: jsonValue, strict: strict, path: path, depth: 0)
    }

    /// The deepest nesting of schemas read or converted (deeper input is refused, not a crash).
    public static let maximumDepth = 128

    private init(jsonValue: JSONValue, strict: Bool, path: String, depth: Int) throws {
        guard depth <= GeminiSchema.maximumDepth else {
            throw GeminiSchemaError.unsupported(
                path: path, reason: "schemas nested deeper than \(GeminiSchema.maximumDepth) levels")
        }
        guard case .object(let members) = jsonValue else {
            throw GeminiSchemaError.invalidValue(path: path, expected: "a schema object")
        }
        self.init()
        let reader = SchemaFieldReader(path: path)
        for member in members {
            let value = member.value
            let fieldPath = JSONPath.member(path, member.key)
            switch member.key {
            case "type": type = GeminiSchemaType(rawValue: try reader.string(value, member.key))
            case "format": format = try reader.string(value, member.key)
            case "title": title = try reader.string(value, member.key)
            case "description": description = try reader.string(value, member.key)
            case "nullable": nullable = try reader.bool(value, member.key)
            case "enum": enumValues = try reader.strings(value, member.key)
            case "items":
                items = try GeminiSchema(jsonValue: value, strict: strict, path: fieldPath, depth: depth + 1)
            case "minItems": minItems = try reader.integer(value, member.key)
            case "maxItems": maxItems = try reader.integer(value, member.key)
            case "properties":
                guard case .object(let propertyMembers) = value else {
                    throw GeminiSchemaError.invalidValue(path: fieldPath, expected: "an object")
                }
                var parsed = GeminiSchemaProperties()
                for property in propertyMembers {
                    parsed[property.key] = try GeminiSchema(
                        jsonValue: property.value, strict: strict,
                        path: JSONPath.member(fieldPath, property.key), depth: depth + 1)
                }
                properties = parsed
            case "required": required = try reader.strings(value, member.key)
            case "minProperties": minProperties = try reader.integer(value, member.key)
            case "maxProperties": maxProperties = try reader.integer(value, member.key)
            case "minimum": minimum = try reader.number(value, member.key)
            case "maximum": maximum = try reader.number(value, member.key)
            case "minLength": minLength = try reader.integer(value, member.key)
            case "maxLength": maxLength = try reader.integer(value, member.key)
            case "pattern": pattern = try reader.string(value, member.key)
            case "example": example = try reader.example(value, member.key)
            case "anyOf":
                guard case .array(let branches) = value else {
                    throw GeminiSchemaError.invalidValue(path: fieldPath, expected: "an array")
                }
                anyOf = try branches.enumerated().map { index, branch in
                    try GeminiSchema(
                        jsonValue: branch, strict: strict, path: JSONPath.index(fieldPath, index),
                        depth: depth + 1)
                }
            case "propertyOrdering": propertyOrdering = try reader.strings(value, member.key)
            case "default": defaultValue = value
            default:
                if strict { throw GeminiSchemaError.unknownKeyword(path: path, keyword: member.key) }
            }
        }
    }
}

/// Reads typed field values, throwing ``GeminiSchemaError/invalidValue(path:expected:)``.
struct SchemaFieldReader {
    let path: String

    private func fail(_ key: String, _ expected: String) -> GeminiSchemaError {
        .invalidValue(path: JSONPath.member(path, key), expected: expected)
    }

    func string(_ value: JSONValue, _ key: String) throws -> String {
        guard case .string(let text) = value else { throw fail(key, "a string") }
        return text
    }

    func bool(_ value: JSONValue, _ key: String) throws -> Bool {
        guard case .bool(let flag) = value else { throw fail(key, "a boolean") }
        return flag
    }

    func strings(_ value: JSONValue, _ key: String) throws -> [String] {
        guard case .array(let elements) = value else { throw fail(key, "an array of strings") }
        return try elements.map {
            guard case .string(let text) = $0 else { throw fail(key, "an array of strings") }
            return text
        }
    }

    /// A non-negative or negative whole number that fits `Int`, as a number or decimal string.
    func integer(_ value: JSONValue, _ key: String) throws -> Int {
        let text: String
        switch value {
        case .number(let number): text = number.text
        case .string(let string): text = string
        default: throw fail(key, "an integer")
        }
        if let exact = Int(text) { return exact }
        guard let double = Double(text), double.isFinite, double == double.rounded(),
            abs(double) < 9.0e15
        else { throw fail(key, "an integer") }
        return Int(double)
    }

    func number(_ value: JSONValue, _ key: String) throws -> Double {
        guard case .number(let number) = value, number.doubleValue.isFinite else {
            throw fail(key, "a finite number")
        }
        return number.doubleValue
    }

    /// Any JSON value whose numbers fit a `Double` (a schema's numbers go out as doubles, and
    /// `1e400` has none to go out as).
    func example(_ value: JSONValue, _ key: String) throws -> JSONValue {
        guard value.numbersAreFinite else { throw fail(key, "a value whose numbers are finite doubles") }
        return value
    }
}

extension JSONValue {
    /// Whether every number in the value (at any depth) reads as a finite `Double`.
    var numbersAreFinite: Bool {
        switch self {
        case .null, .bool, .string: true
        case .number(let number): number.doubleValue.isFinite
        case .array(let elements): elements.allSatisfy(\.numbersAreFinite)
        case .object(let members): members.allSatisfy(\.value.numbersAreFinite)
        }
    }
}

/// Small text helpers over ``JSONValue`` used by schema messages.
enum JSONValueText {
    /// `text` as a quoted JSON string literal.
    static func quoted(_ text: String) -> String { JSONValue.string(text).compactText }

    /// `text` quoted for a message about a word the user typed, cut at 40 characters with `…`
    /// (a 10 MB "type name" is named, not echoed).
    static func quotedWord(_ text: String) -> String {
        quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)
    }

    /// A short rendering for messages: `string "2016"`, `number 3`, `boolean true`, `null`,
    /// `array`, `object`. Long strings are cut at 40 characters with `…`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .number(let number): return "number \(number.text)"
        case .string(let text):
            return "string " + quoted(TextExcerpt.prefix(text, limit: 40))
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension GeminiSchema {
    /// The schema written as JSON Schema (what `schema show json-schema` prints, and the
    /// starting point of a `responseJsonSchema` request).
    ///
    /// Types are lower case; `nullable: true` becomes `type: [T, "null"]` (with `null` added to
    /// an `enum`, and a `{"type": "null"}` branch added to an `anyOf`); `example` becomes
    /// `examples: [example]`; `propertyOrdering`, a Gemini Schema field that is no JSON Schema
    /// keyword, is left out (the properties go out in its order instead, and the converter
    /// fills it back from that order); every other field keeps its name. Keys go out in one
    /// fixed order and properties in output order, so the text is byte-stable. Converting the result back
    /// with ``JSONSchemaConverter`` gives this schema again (less `default` and `example`,
    /// which the converter drops).
    public var jsonSchemaValue: JSONValue {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: JSONValue?) {
            if let value { members.append(JSONMember(key, value)) }
        }
        let isNullable = nullable == true
        if let type {
            let name = JSONValue.string(type.description)
            add("type", isNullable && type != .null ? .array([name, .string("null")]) : name)
        }
        add("format", format.map(JSONValue.string))
        add("title", title.map(JSONValue.string))
        add("description", description.map(JSONValue.string))
        add("enum", enumValues.map { .array($0.map(JSONValue.string) + (isNullable ? [.null] : [])) })
        members += constraintMembers(nested: \.jsonSchemaValue).filter { $0.key != "propertyOrdering" }
        if let anyOf {
            let nullBranch: [JSONValue] =
                isNullable && type == nil ? [.object([JSONMember("type", .string("null"))])] : []
            add("anyOf", .array(anyOf.map(\.jsonSchemaValue) + nullBranch))
        }
        add("examples", example.map { .array([$0]) })
        add("default", defaultValue)
        return .object(members)
    }
}
