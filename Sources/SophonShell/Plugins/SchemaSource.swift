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

    /// Parses `spec`, or loads the file after `@` (resolved with `context`).
    /// - Throws: ``CommandFailure`` (`schemaError`, `fileError`) naming the line and column or
    ///   the JSON path of the problem.
    static func load(_ spec: String, command: String, context: CommandContext) throws -> Loaded {
        let trimmed = spec.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("@") else {
            let schema: GeminiSchema
            do {
                schema = try GeminiSchema.parseSpec(trimmed)
            } catch {
                throw CommandFailure(kind: .schemaError, message: "\(command): \(error)")
            }
            // `{ "title": "string" }` is kept as written (a one-value enum), with a warning.
            for quoted in schema.quotedTypeNames() {
                context.io.printError(
                    ShellMessages.quotedTypeName(
                        command: command, written: quoted.written, fix: quoted.fix, value: quoted.typeName,
                        fileForm: command == "schema" ? "schema @file.json" : "\(command) --schema @file.json"
                    ))
            }
            return Loaded(schema: schema, notes: [])
        }
        let path = context.resolve(String(trimmed.dropFirst()))
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
}
