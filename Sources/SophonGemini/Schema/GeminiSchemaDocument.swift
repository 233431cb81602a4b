import SophonCore

/// A schema read from a JSON document (the shell's `schema @FILE`): Gemini Schema or JSON
/// Schema, told apart by ``Dialect/detect(_:)``.
public struct GeminiSchemaDocument: Sendable, Hashable {
    /// The two JSON schema languages a document may be written in.
    public enum Dialect: String, Sendable, Hashable {
        /// Gemini's OpenAPI-subset `Schema` (upper-case types, `nullable`, `propertyOrdering`).
        case geminiSchema
        /// JSON Schema (lower-case types, `$ref`, `$defs`, `const`, `additionalProperties`, ...).
        case jsonSchema

        /// Which language `document` is written in.
        ///
        /// An upper-case `type` name anywhere (`"OBJECT"`) means Gemini Schema. Otherwise a JSON
        /// Schema marker anywhere (`$schema`, `$id`, `$ref`, `$defs`, `definitions`, `const`,
        /// `oneOf`, `allOf`, `additionalProperties`, `examples`, `exclusiveMinimum`,
        /// `exclusiveMaximum`, a `type` array) means JSON Schema. Otherwise Gemini-only keys
        /// (`nullable`, `propertyOrdering`) mean Gemini Schema, and anything else (plain
        /// lower-case types) is read as JSON Schema; both readings then give the same schema.
        public static func detect(_ document: JSONValue) -> Dialect {
            var scan = DialectScan()
            scan.visit(document, depth: 0)
            if scan.upperCaseType { return .geminiSchema }
            if scan.jsonSchemaMarker { return .jsonSchema }
            return scan.geminiKey ? .geminiSchema : .jsonSchema
        }
    }

    /// The schema to send, with `propertyOrdering` filled from document order.
    public let schema: GeminiSchema
    /// The language the document was read as.
    public let dialect: Dialect
    /// What conversion dropped or changed (always empty for Gemini Schema).
    public let notes: [GeminiSchemaIssue]

    /// Reads `document` in its detected dialect: Gemini Schema strictly (an unknown key is an
    /// error), JSON Schema through ``JSONSchemaConverter``.
    /// - Throws: ``GeminiSchemaError`` with the JSON path of the problem.
    public init(_ document: JSONValue) throws(GeminiSchemaError) {
        let dialect = Dialect.detect(document)
        self.dialect = dialect
        switch dialect {
        case .geminiSchema:
            do {
                schema = try GeminiSchema(jsonValue: document).fillingPropertyOrdering()
            } catch let error as GeminiSchemaError {
                throw error
            } catch {
                throw .unsupported(path: "$", reason: "\(error)")
            }
            notes = []
        case .jsonSchema:
            let conversion = try JSONSchemaConverter.convert(document)
            schema = conversion.schema
            notes = conversion.notes
        }
    }
}

/// Walks a document once, noting dialect markers.
private struct DialectScan {
    var upperCaseType = false
    var jsonSchemaMarker = false
    var geminiKey = false

    static let jsonSchemaKeys: Set<String> = [
        "$schema", "$id", "$ref", "$defs", "definitions", "const", "oneOf", "allOf",
        "additionalProperties", "examples", "exclusiveMinimum", "exclusiveMaximum",
    ]

    mutating func visit(_ value: JSONValue, depth: Int) {
        guard depth <= GeminiSchema.maximumDepth * 2 else { return }
        switch value {
        case .array(let elements):
            for element in elements { visit(element, depth: depth + 1) }
        case .object(let members):
            for member in members {
                if DialectScan.jsonSchemaKeys.contains(member.key) { jsonSchemaMarker = true }
                if member.key == "nullable" || member.key == "propertyOrdering" { geminiKey = true }
                if member.key == "type" {
                    switch member.value {
                    case .string(let name):
                        let known = GeminiSchemaType.known.contains(GeminiSchemaType(rawValue: name))
                        if known, name == name.uppercased() { upperCaseType = true }
                    case .array: jsonSchemaMarker = true
                    default: break
                    }
                }
                // Property names are data, not keywords: look only at their schemas.
                if ["example", "examples", "default", "enum", "const"].contains(member.key) { continue }
                if member.key == "properties", case .object(let properties) = member.value {
                    for property in properties { visit(property.value, depth: depth + 1) }
                } else {
                    visit(member.value, depth: depth + 1)
                }
            }
        default: break
        }
    }
}
