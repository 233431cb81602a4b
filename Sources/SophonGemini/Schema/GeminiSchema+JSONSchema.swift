import SophonCore

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
