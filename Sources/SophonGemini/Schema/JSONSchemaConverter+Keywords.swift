import SophonCore

extension SchemaConversionRun {
    /// Converts a schema object with no `$ref`, `allOf`, `anyOf` or `oneOf`, keyword by keyword.
    mutating func convertPlain(_ members: [JSONMember], path: String, depth: Int) throws(GeminiSchemaError)
        -> GeminiSchema
    {
        var schema = GeminiSchema()
        var enumValues: [JSONValue]?
        var constValue: JSONValue?
        let reader = SchemaFieldReader(path: path)
        do {
            for member in members {
                let value = member.value
                let keyPath = JSONPath.member(path, member.key)
                switch member.key {
                case "type": try readType(value, path: keyPath, into: &schema)
                case "format": schema.format = try reader.string(value, member.key)
                case "title": schema.title = try reader.string(value, member.key)
                case "description": schema.description = try reader.string(value, member.key)
                case "pattern": schema.pattern = try reader.string(value, member.key)
                case "nullable": schema.nullable = try reader.bool(value, member.key) ? true : schema.nullable
                case "enum":
                    guard case .array(let values) = value else {
                        throw GeminiSchemaError.invalidValue(path: keyPath, expected: "an array")
                    }
                    enumValues = values
                case "const": constValue = value
                case "minimum": schema.minimum = try reader.number(value, member.key)
                case "maximum": schema.maximum = try reader.number(value, member.key)
                case "minItems": schema.minItems = try reader.integer(value, member.key)
                case "maxItems": schema.maxItems = try reader.integer(value, member.key)
                case "minLength": schema.minLength = try reader.integer(value, member.key)
                case "maxLength": schema.maxLength = try reader.integer(value, member.key)
                case "minProperties": schema.minProperties = try reader.integer(value, member.key)
                case "maxProperties": schema.maxProperties = try reader.integer(value, member.key)
                case "required": schema.required = try reader.strings(value, member.key)
                case "propertyOrdering": schema.propertyOrdering = try reader.strings(value, member.key)
                case "example":
                    guard value.numbersAreFinite else {
                        throw GeminiSchemaError.invalidValue(
                            path: keyPath, expected: "a value whose numbers are finite doubles")
                    }
                    schema.example = value
                case "items":
                    if case .array = value {
                        throw GeminiSchemaError.unsupported(
                            path: keyPath, reason: "tuple items (an array of schemas) cannot be converted")
                    }
                    schema.items = try convert(value, path: keyPath, depth: depth + 1)
                case "prefixItems":
                    throw GeminiSchemaError.unsupported(
                        path: keyPath, reason: "prefixItems (tuples) cannot be converted")
                case "properties":
                    guard case .object(let propertyMembers) = value else {
                        throw GeminiSchemaError.invalidValue(path: keyPath, expected: "an object")
                    }
                    var properties = GeminiSchemaProperties()
                    for property in propertyMembers {
                        properties[property.key] = try convert(
                            property.value, path: JSONPath.member(keyPath, property.key),
                            depth: depth + 1)
                    }
                    schema.properties = properties
                case "$defs", "definitions": break  // Consumed by references.
                default:
                    let reason =
                        JSONSchemaConverter.droppedKeys.contains(member.key)
                        ? "not accepted by the Gemini API" : "no Gemini Schema equivalent"
                    notes.append(
                        GeminiSchemaIssue(
                            path: path, message: "dropped \(JSONValueText.quoted(member.key)) (\(reason))"))
                }
            }
        } catch let error as GeminiSchemaError {
            throw error
        } catch {
            throw .unsupported(path: path, reason: "\(error)")
        }
        if let constValue {
            if enumValues != nil {
                notes.append(GeminiSchemaIssue(path: path, message: "enum dropped: const wins"))
            }
            enumValues = [constValue]
        }
        if let enumValues { try applyEnum(enumValues, path: path, to: &schema) }
        if schema.type == .object, schema.properties?.isEmpty ?? true {
            schema.properties = nil
            notes.append(
                GeminiSchemaIssue(
                    path: path,
                    message: "an object without properties: the Gemini API rejects OBJECT with no properties")
            )
        }
        if let properties = schema.properties, !properties.isEmpty, schema.propertyOrdering == nil {
            schema.propertyOrdering = properties.names
        }
        return schema
    }

    private func readType(_ value: JSONValue, path: String, into schema: inout GeminiSchema)
        throws(GeminiSchemaError)
    {
        var names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let elements):
            names = []
            for element in elements {
                guard case .string(let name) = element else {
                    throw .invalidValue(path: path, expected: "a type name or an array of type names")
                }
                names.append(name)
            }
        default: throw .invalidValue(path: path, expected: "a type name or an array of type names")
        }
        if names.count > 1, names.contains(where: { $0.lowercased() == "null" }) {
            schema.nullable = true
            names.removeAll { $0.lowercased() == "null" }
        }
        guard names.count <= 1 else {
            let list = names.map(JSONValueText.quoted).joined(separator: ", ")
            throw .unsupported(path: path, reason: "several types (\(list)) cannot be converted; use anyOf")
        }
        guard let name = names.first else {
            throw .invalidValue(path: path, expected: "at least one type name")
        }
        let type = GeminiSchemaType(rawValue: name)
        if case .unknown = type {
            throw .unsupported(path: path, reason: "unknown type \(JSONValueText.quoted(name))")
        }
        schema.type = type
    }

    private mutating func applyEnum(_ values: [JSONValue], path: String, to schema: inout GeminiSchema)
        throws(GeminiSchemaError)
    {
        var strings: [String] = []
        var convertedNonStrings = false
        for value in values {
            switch value {
            case .string(let text): strings.append(text)
            case .null: schema.nullable = true
            case .number, .bool:
                strings.append(value.compactText)
                convertedNonStrings = true
            case .array, .object:
                throw .unsupported(
                    path: JSONPath.member(path, "enum"),
                    reason: "enum values must be strings, numbers or booleans")
            }
        }
        schema.enumValues = strings
        if convertedNonStrings {
            let was = schema.type.map { " (was \($0.rawValue))" } ?? ""
            notes.append(
                GeminiSchemaIssue(
                    path: path,
                    message:
                        "enum values written as strings and type set to STRING\(was): the API takes string enums only"
                ))
            schema.type = .string
        } else if schema.type == nil {
            schema.type = .string
        }
    }
}
