import Foundation
import SophonCore
import SophonGemini

/// What the schema harnesses do with a schema that was read: everything the shell and the
/// client do with one (print it both ways, check it for the API, encode it for a request,
/// validate and coerce values against it).
enum SchemaExercise {
    /// Values validated and coerced against every schema read.
    static let samples: [JSONValue] = [
        .null, .bool(true), .string(""), .string("7"), .string("$1,299.99"), .string("85%"),
        .string("yes"), .string("N/A"), .string("a, b"), .integer(3), .integer(-1),
        .number(JSONNumber(text: "7.9") ?? JSONNumber(7)),
        .number(JSONNumber(text: "1e400") ?? JSONNumber(0)),
        .array([.string("a"), .integer(1), .null]),
        .object([JSONMember("title", .string("Dune")), JSONMember("year", .string("1965"))]),
    ]

    /// Runs the schema through its uses; `fuzzRequire`s what must hold.
    static func run(_ schema: GeminiSchema) {
        let json = schema.jsonValue
        _ = json.prettyText
        _ = schema.jsonSchemaValue.prettyText
        for problem in schema.apiProblems() { _ = problem.description }

        // The Gemini Schema JSON reads back to the same JSON.
        do {
            let reread = try GeminiSchema(jsonValue: json)
            fuzzRequire(
                reread.jsonValue == json,
                "Gemini Schema JSON does not read back the same: \(json.compactText)")
        } catch {
            fuzzRequire(false, "Gemini Schema JSON does not read back: \(error) in \(json.compactText)")
        }

        // `schema show json-schema` saved to a file reads back (`schema @FILE`) as the same
        // schema, less `example` and `default` (dropped by the converter, as documented on
        // `jsonSchemaValue`) and less a redundant `nullable`. Held for schemas
        // the API accepts: an unknown type kept for forward compatibility (`"type": "ime"`) has
        // no JSON Schema reading.
        // Schemas with `anyOf` are left out: the converter normalises its JSON Schema forms
        // (`anyOf` with null -> `nullable`, a single branch -> that branch), so they read back
        // equivalent but not equal.
        if schema.apiProblems().isEmpty, !json.compactText.contains(#""anyOf""#) {
            let jsonSchema = schema.jsonSchemaValue
            do {
                let reread = try GeminiSchemaDocument(jsonSchema).schema.jsonValue
                fuzzRequire(
                    comparable(reread) == comparable(json),
                    "JSON Schema form reads back different: \(json.compactText) -> \(jsonSchema.compactText) -> "
                        + reread.compactText)
            } catch {
                fuzzRequire(
                    false, "JSON Schema form does not read back: \(error) in \(jsonSchema.compactText)")
            }
        }

        // The request encoding (Codable) decodes back.
        if let data = try? JSONEncoder().encode(schema) {
            fuzzRequire(
                (try? JSONDecoder().decode(GeminiSchema.self, from: data)) != nil,
                "encoded schema does not decode: \(String(decoding: data, as: UTF8.self))")
        } else {
            fuzzRequire(false, "schema does not encode: \(json.compactText)")
        }

        var values = samples
        if let example = schema.example { values.append(example) }
        for value in values {
            for violation in schema.validate(value) { _ = violation.description }
            let coerced = schema.coerce(value)
            for change in coerced.changes { _ = change.description }
            _ = schema.validate(coerced.value)
        }
    }

    /// Gemini Schema JSON without what the JSON Schema round trip drops on purpose.
    static func comparable(_ schema: JSONValue) -> JSONValue {
        guard case .object(let members) = schema else { return schema }
        // `anyOf` with a single branch and nothing beside it is that branch (the converter
        // reads `{"anyOf": [X]}` back as X).
        if members.count == 1, members[0].key == "anyOf", case .array(let branches) = members[0].value,
            branches.count == 1
        {
            return comparable(branches[0])
        }
        // `nullable` says nothing more on a `NULL` type, nor without a type (JSON Schema's `{}`
        // already admits null).
        // (A typeless enum keeps it: its JSON Schema form lists null among the values.)
        let redundantNullable =
            schema["type"] == .string("NULL") || (schema["type"] == nil && schema["enum"] == nil)
        var kept: [JSONMember] = []
        for member in members {
            switch member.key {
            case "example", "default":
                continue
            case "propertyOrdering":
                // Not a JSON Schema keyword: the JSON Schema form carries the order in its
                // `properties` and reads back with every property listed (docs/commands.md,
                // `schema show json-schema`).
                continue
            case "nullable" where redundantNullable:
                continue
            case "type" where member.value == .string("STRING") && schema["enum"] != nil:
                continue  // An enum is a string enum: the converter adds the type the API needs.
            case "items":
                kept.append(JSONMember(member.key, comparable(member.value)))
            case "anyOf":
                guard case .array(let branches) = member.value else { fallthrough }
                kept.append(JSONMember(member.key, .array(branches.map(comparable))))
            case "properties":
                guard case .object(let properties) = member.value else { fallthrough }
                kept.append(
                    JSONMember(
                        member.key, .object(properties.map { JSONMember($0.key, comparable($0.value)) })))
            default:
                kept.append(member)
            }
        }
        return .object(kept)
    }
}
