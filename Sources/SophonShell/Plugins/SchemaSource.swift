import Foundation
import SophonCore
import SophonGemini

/// Reads a schema the way `schema` and `extract --schema` take it (docs/commands.md): the type
/// syntax or `llm`'s concise syntax inline, or `@FILE` holding Gemini Schema or JSON Schema.
enum SchemaSource {
    /// A schema and the notes its conversion produced (dropped JSON Schema keywords).
    struct Loaded: Sendable {
        var schema: GeminiSchema
        var notes: [String]
    }

    /// The largest schema file read, in bytes.
    static let maximumFileBytes = 8 * 1024 * 1024

    /// The 0-based character offset of 1-based `line` and `column` in `text`.
    private static func offset(ofLine line: Int, column: Int, in text: String) -> Int {
        var offset = 0
        var currentLine = 1
        for character in text {
            if currentLine == line { break }
            if character.isNewline { currentLine += 1 }
            offset += 1
        }
        return offset + column - 1
    }

    /// Parses `spec`, or loads the file after `@` (resolved with `context`).
    /// - Throws: ``CommandFailure`` (`schemaError`, `fileError`) naming the line and column or
    ///   the JSON path of the problem.
    static func load(_ spec: String, command: String, context: CommandContext) throws -> Loaded {
        let trimmed = spec.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let path = try ExtractCommand.filePath(trimmed, command: command, context: context) else {
            let schema: GeminiSchema
            do {
                schema = try GeminiSchema.parseSpec(trimmed)
            } catch {
                var failure = CommandFailure(kind: .schemaError, message: "\(command): \(error)")
                failure.position = .init(
                    text: spec,
                    offset: offset(ofLine: error.line, column: error.column, in: trimmed)
                        + spec.prefix { $0.isWhitespace || $0.isNewline }.count,
                    message: "\(command): \(error.message)")
                throw failure
            }
            // `{ "title": "string" }` is kept as written (a one-value enum), with a warning.
            for quoted in schema.quotedTypeNames() {
                context.io.printError(
                    ShellMessages.quotedTypeName(
                        command: command, written: quoted.written, fix: quoted.fix, value: quoted.typeName,
                        fileForm: command == "schema" ? "schema @file.json" : "\(command) --schema @file.json"
                    ))
            }
            if !trimmed.hasPrefix("{"), !trimmed.hasPrefix("[") {
                warnOfTypesWithoutBraces(trimmed, schema, command: command, context: context)
            }
            return Loaded(schema: schema, notes: [])
        }
        let data = try ExtractCommand.readFile(path, command: command, limit: maximumFileBytes)
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(kind: .schemaError, message: "\(command): '\(path)' is not valid UTF-8")
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw CommandFailure(
                kind: .schemaError,
                message: "\(command): \(path):\(error.line):\(error.column): \(error.message)")
        }
        do {
            let loaded = try GeminiSchemaDocument(document)
            return Loaded(schema: loaded.schema, notes: loaded.notes.map(\.description))
        } catch {
            throw CommandFailure(kind: .schemaError, message: "\(command): \(path): \(error)")
        }
    }

    /// `llm`'s concise syntax (`title: a short title`) read from what was meant as the type syntax
    /// without braces (`title: string, year?: integer`): a field whose description is a type
    /// name, or whose name ends with `?`, gets a warning with the braced form. The schema is kept
    /// as read (the concise syntax is valid as written).
    private static func warnOfTypesWithoutBraces(
        _ spec: String, _ schema: GeminiSchema, command: String, context: CommandContext
    ) {
        let typeWords: Set<String> = [
            "string", "integer", "number", "boolean", "array", "object", "str", "int", "float", "double",
            "bool",
        ]
        func isTypeName(_ text: String) -> Bool {
            var word = Substring(text.trimmingCharacters(in: .whitespaces))
            while word.hasPrefix("["), word.hasSuffix("]") { word = word.dropFirst().dropLast() }
            return typeWords.contains(String(word.trimmingCharacters(in: .whitespaces)))
        }
        let suspect = (schema.properties ?? GeminiSchemaProperties()).first { property in
            property.name.hasSuffix("?") || isTypeName(property.schema.description ?? "")
        }
        guard let suspect else { return }
        func typeText(_ schema: GeminiSchema) -> String {
            if let description = schema.description, isTypeName(description) { return description }
            switch schema.type {
            case .integer: return "integer"
            case .number: return "number"
            case .boolean: return "boolean"
            default: return "string"
            }
        }
        let braced = (schema.properties ?? GeminiSchemaProperties()).map {
            "\($0.name): \(typeText($0.schema))"
        }
        let (written, reading) =
            suspect.schema.description.map {
                ("\(suspect.name): \($0)", "a field \(suspect.name) described as \"\($0)\"")
            } ?? (suspect.name, "a field named \"\(suspect.name)\"")
        context.io.printError(
            ShellMessages.conciseTypeDescription(
                command: command, field: written, reading: reading,
                braced: "{ \(braced.joined(separator: ", ")) }"))
    }
}
