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
        .number(JSONNumber(text: "7.9") ?? JSONNumber(7)), .number(JSONNumber(text: "1e400") ?? JSONNumber(0)),
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
            fuzzRequire(reread.jsonValue == json, "Gemini Schema JSON does not read back the same: \(json.compactText)")
        } catch {
            fuzzRequire(false, "Gemini Schema JSON does not read back: \(error) in \(json.compactText)")
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
}
