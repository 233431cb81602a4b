import SophonCore
import SophonGemini
import SophonPrompt

/// `schema show --picoschema` and `schema picoschema TEXT` (docs/prompts.md): one schema in the
/// type syntax, in Picoschema and in JSON Schema, one after the other (teaching).
enum SchemaSideBySide {
    /// `schema picoschema TEXT`: TEXT is Picoschema (YAML, `{title: string, year?: integer}`).
    /// - Returns: the three forms (with `--json`, as ``report(_:)``), and what Gemini's schema
    ///   cannot say of it (the conversion's notes: `$.properties.scores: dropped
    ///   "additionalProperties" ...`), for `note:` lines on stderr.
    static func fromPicoschema(_ text: String) throws -> (result: CommandResult, notes: [GeminiSchemaIssue]) {
        do {
            let yaml = try YAMLReader.read(text, file: "picoschema")
            let jsonSchema = try Picoschema().jsonSchema(yaml)
            let document = try GeminiSchemaDocument(withoutClosedObjects(jsonSchema))
            return (report(document.schema), document.notes)
        } catch let error as PromptError {
            throw CommandFailure(kind: .schemaError, message: "schema picoschema: \(error)")
        } catch let error as PicoschemaError {
            throw CommandFailure(kind: .schemaError, message: "schema picoschema: \(error)")
        } catch {
            throw CommandFailure(kind: .schemaError, message: "schema picoschema: \(error)")
        }
    }

    /// `value` without its `"additionalProperties": false` members: Picoschema closes every
    /// object, which Gemini's schema cannot say and need not be told of in a `note:` each time
    /// (an `additionalProperties` schema, `(*): T`, is kept, and noted when dropped).
    /// Prompt files (`PromptTemplate`) use it too.
    static func withoutClosedObjects(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.filter { !($0.key == "additionalProperties" && $0.value == .bool(false)) }.map {
                    JSONMember($0.key, withoutClosedObjects($0.value))
                })
        case .array(let items):
            return .array(items.map(withoutClosedObjects))
        default:
            return value
        }
    }

    /// The three forms of `schema`, headed; with `--json`, `{"typeSyntax", "picoschema",
    /// "jsonSchema"}` (`typeSyntax` or `picoschema` null when that form cannot say the schema).
    static func report(_ schema: GeminiSchema) -> CommandResult {
        let pico = picoschema(schema, indent: "").map { $0.joined(separator: "\n") }
        let data = JSONValue.object([
            JSONMember("typeSyntax", typeSyntax(schema).map { .string($0) } ?? .null),
            JSONMember("picoschema", pico.map { .string($0) } ?? .null),
            JSONMember("jsonSchema", schema.jsonSchemaValue),
        ])
        return .report(shown(schema, picoschema: pico), data: data)
    }

    /// The three forms of `schema`, headed.
    private static func shown(_ schema: GeminiSchema, picoschema pico: String?) -> String {
        """
        type syntax:
        \(typeSyntax(schema) ?? "(the type syntax cannot say this schema; use the JSON Schema)")

        picoschema:
        \(pico ?? "(Picoschema cannot say this schema; use the JSON Schema)")

        json schema:
        \(schema.jsonSchemaValue.prettyText)
        """
    }

    /// The schema in the shell's type syntax (`GeminiSchema.parseTypeSyntax` reads it back);
    /// `nil` when it cannot say it (an untyped value such as Picoschema's `any`, an `anyOf`).
    static func typeSyntax(_ schema: GeminiSchema) -> String? {
        var text: String
        if let values = schema.enumValues {
            text = values.map { JSONValue.string($0).compactText }.joined(separator: " | ")
        } else if schema.type == .object {
            let required = Set(schema.required ?? [])
            var fields: [String] = []
            for (name, child) in properties(schema) {
                guard let type = typeSyntax(child) else { return nil }
                fields.append("\(name)\(required.contains(name) ? "" : "?"): \(type)")
            }
            text = "{ " + fields.joined(separator: ", ") + " }"
        } else if schema.type == .array {
            guard let items = schema.items.map(typeSyntax) ?? "string" else { return nil }
            text = "[\(items)]"
        } else if let type = schema.type {
            text = type.rawValue.lowercased()
        } else {
            return nil
        }
        if schema.nullable == true { text += " | null" }
        if let description = schema.description { text += " \(JSONValue.string(description).compactText)" }
        return text
    }

    /// The schema's Picoschema lines; `nil` when Picoschema cannot say it (an array of arrays,
    /// `anyOf`, a scalar root).
    static func picoschema(_ schema: GeminiSchema, indent: String) -> [String]? {
        guard schema.type == .object, schema.anyOf == nil, schema.properties?.isEmpty == false else {
            return nil
        }
        let required = Set(schema.required ?? [])
        var lines: [String] = []
        for (name, child) in properties(schema) {
            let key = name + (required.contains(name) ? "" : "?")
            let description = child.description.map { ", \($0)" } ?? ""
            if let values = child.enumValues {
                lines.append("\(indent)\(key)(enum\(description)): [\(values.joined(separator: ", "))]")
            } else if child.type == .object {
                guard let nested = picoschema(child, indent: indent + "  ") else { return nil }
                lines.append("\(indent)\(key)(object\(description)):")
                lines += nested
            } else if child.type == .array, let items = child.items {
                if items.type == .object {
                    guard let nested = picoschema(items, indent: indent + "  ") else { return nil }
                    lines.append("\(indent)\(key)(array\(description)):")
                    lines += nested
                } else if items.type == .array || items.anyOf != nil || items.enumValues != nil {
                    return nil
                } else {
                    lines.append("\(indent)\(key)(array\(description)): \(scalar(items))")
                }
            } else if child.anyOf != nil {
                return nil
            } else {
                lines.append("\(indent)\(key): \(scalar(child))\(description)")
            }
        }
        return lines
    }

    private static func scalar(_ schema: GeminiSchema) -> String {
        schema.type?.rawValue.lowercased() ?? "any"
    }

    /// The properties in their order.
    private static func properties(_ schema: GeminiSchema) -> [(String, GeminiSchema)] {
        let all = schema.properties.map { Array($0) } ?? []
        let order = schema.propertyOrdering ?? all.map(\.name)
        return order.compactMap { name in all.first { $0.name == name }.map { (name, $0.schema) } }
    }
}
