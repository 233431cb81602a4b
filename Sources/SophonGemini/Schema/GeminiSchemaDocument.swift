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

/// Why a JSON document could not be read as a Gemini Schema or converted from JSON Schema.
///
/// Every case carries the JSON path (`$.properties.author.items`) of the offending schema in the
/// document, so a message can point at it.
public enum GeminiSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field has the wrong kind of value (`required` that is not an array of strings).
    case invalidValue(path: String, expected: String)
    /// A key that Gemini Schema does not have (reading Gemini Schema strictly).
    case unknownKeyword(path: String, keyword: String)
    /// A `$ref` that leads back to a schema being expanded: it cannot be inlined.
    case recursiveReference(path: String, reference: String)
    /// A `$ref` that names nothing in the document (or points outside it).
    case unresolvableReference(path: String, reference: String)
    /// A JSON Schema construct with no Gemini Schema equivalent.
    case unsupported(path: String, reason: String)

    /// The JSON path of the problem.
    public var path: String {
        switch self {
        case .invalidValue(let path, _), .unknownKeyword(let path, _),
            .recursiveReference(let path, _), .unresolvableReference(let path, _),
            .unsupported(let path, _):
            path
        }
    }

    /// One line: `PATH: what is wrong`.
    public var description: String {
        switch self {
        case .invalidValue(let path, let expected): "\(path): expected \(expected)"
        case .unknownKeyword(let path, let keyword):
            "\(path): unknown Gemini Schema keyword \(JSONValueText.quoted(keyword))"
        case .recursiveReference(let path, let reference):
            "\(path): recursive reference \(JSONValueText.quoted(reference)) cannot be inlined"
        case .unresolvableReference(let path, let reference):
            "\(path): cannot resolve reference \(JSONValueText.quoted(reference))"
        case .unsupported(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// A mistake in schema type syntax or concise syntax, with its location.
///
/// `line` and `column` are 1-based; columns count characters (grapheme clusters) from the start
/// of the line. The description reads `expected ':' after property name at column 12`, with
/// `line L, column C` when the input has more than one line.
public struct GeminiSchemaSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, without the location.
    public let message: String
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem on its line.
    public let column: Int
    /// Whether the input had several lines (the description then names the line).
    public let isMultiline: Bool

    /// Creates an error.
    public init(message: String, line: Int, column: Int, isMultiline: Bool = false) {
        self.message = message
        self.line = line
        self.column = column
        self.isMultiline = isMultiline
    }

    /// `MESSAGE at column C`, or `MESSAGE at line L, column C` for multi-line input.
    public var description: String {
        isMultiline ? "\(message) at line \(line), column \(column)" : "\(message) at column \(column)"
    }
}
