import Foundation
import SophonCore
import SophonGemini

/// Reads the declarations of `tool NAME SPEC ["DESCRIPTION"]` and `tool @FILE`
/// (docs/commands.md, "Tools").
enum ToolDeclarationSource {
    /// `tool NAME SPEC ["DESCRIPTION"]`: SPEC in the schema type syntax (the parameters
    /// object) or `@FILE` (Gemini Schema or JSON Schema of the parameters, or a whole
    /// declaration); a trailing quoted text is the description. No SPEC: a function without
    /// arguments.
    /// - Throws: ``CommandFailure`` `usage` for a bad name, `schemaError` for a bad SPEC.
    static func declaration(name: String, rest: String, context: CommandContext) throws -> FunctionDeclaration
    {
        guard FunctionDeclaration.isValidName(name) else {
            throw CommandFailure(
                kind: .usage,
                message:
                    "tool: '\(name)' is not a valid function name (letters, digits, _ : . -; at most 64; a letter or _ first)"
            )
        }
        var (spec, description) = splitDescription(rest.trimmingCharacters(in: .whitespacesAndNewlines))
        if let path = try ExtractCommand.filePath(spec, command: "tool", context: context) {
            let document = try readJSON(path)
            if case .object = document, document["name"] != nil {
                var declaration = try self.declaration(from: document, context: context)
                declaration.name = name
                if let description { declaration.description = description }
                return declaration
            }
            return try parameters(document, name: name, description: description, context: context)
        }
        // No SPEC, or `{}` (an object without properties, which the API refuses as
        // `parameters`): a function without arguments.
        if spec.isEmpty || spec.filter({ !$0.isWhitespace }) == "{}" {
            return FunctionDeclaration(name: name, description: description)
        }
        let schema: GeminiSchema
        do {
            schema = try GeminiSchema.parseSpec(spec)
        } catch {
            guard description == nil, !spec.contains("{") else {
                throw CommandFailure(kind: .schemaError, message: "tool: \(error)")
            }
            // `tool now "What time it is"`: the shell took the quotes; the text is the description.
            (spec, description) = ("", spec)
            return FunctionDeclaration(name: name, description: description)
        }
        try checkObject(schema)
        return FunctionDeclaration(name: name, description: description, parameters: schema)
    }

    /// `tool @FILE`: one declaration, an array of them, or `{"functionDeclarations": [...]}`.
    /// - Parameter path: the file's path, resolved (``ExtractCommand/filePath(_:command:context:)``).
    static func declarations(path: String, context: CommandContext) throws -> [FunctionDeclaration] {
        let document = try readJSON(path)
        let items: [JSONValue]
        switch document {
        case .array(let elements): items = elements
        case .object where document["functionDeclarations"] != nil:
            guard case .array(let elements)? = document["functionDeclarations"] else {
                throw CommandFailure(
                    kind: .schemaError, message: "tool: functionDeclarations must be an array")
            }
            items = elements
        default: items = [document]
        }
        guard !items.isEmpty else {
            throw CommandFailure(kind: .schemaError, message: "tool: '\(path)' declares no function")
        }
        return try items.map { try declaration(from: $0, context: context) }
    }

    /// A whole declaration: `{"name", "description"?, "parameters" | "parametersJsonSchema"}`.
    private static func declaration(from value: JSONValue, context: CommandContext) throws
        -> FunctionDeclaration
    {
        guard let name = value["name"]?.stringValue else {
            throw CommandFailure(
                kind: .schemaError, message: "tool: a function declaration needs a \"name\" string")
        }
        guard FunctionDeclaration.isValidName(name) else {
            throw CommandFailure(kind: .schemaError, message: "tool: '\(name)' is not a valid function name")
        }
        var declaration = FunctionDeclaration(name: name, description: value["description"]?.stringValue)
        if value["parameters"] != nil, value["parametersJsonSchema"] != nil {
            // The API takes one of them (its FunctionDeclaration reference); neither is dropped
            // silently.
            throw CommandFailure(
                kind: .schemaError,
                message: "tool: '\(name)' has both \"parameters\" and \"parametersJsonSchema\"; give one")
        }
        if let parameters = value["parameters"] {
            // A JSON Schema the converter cannot take goes as written in
            // `parametersJsonSchema` (docs/commands.md, "Tools"); it is never left out.
            declaration = try self.parameters(
                parameters, name: name, description: declaration.description, context: context)
        } else if let schema = value["parametersJsonSchema"] {
            // Sent as written, but only a schema object: `5` or `[...]` would earn a 400.
            guard case .object = schema else {
                throw CommandFailure(
                    kind: .schemaError,
                    message: "tool: '\(name)' "
                        + FunctionDeclarationError.inputSchema(
                            .invalidValue(path: "$", expected: "a schema object")
                        ).description)
            }
            declaration.parametersJsonSchema = schema
        }
        return declaration
    }

    /// The declaration of `name` with the parameters of a schema document, through the one
    /// conversion (``FunctionDeclaration/converting(name:description:inputSchema:sendUnconvertible:)``); its
    /// notes go to stderr.
    /// - Throws: ``CommandFailure`` `schemaError`: `tool: 'NAME' input schema PATH: REASON`
    ///   when the converter cannot take it, or when it is not an object type.
    private static func parameters(
        _ document: JSONValue, name: String, description: String?, context: CommandContext
    ) throws -> FunctionDeclaration {
        do {
            let (declaration, notes) = try FunctionDeclaration.converting(
                name: name, description: description, inputSchema: document, sendUnconvertible: true)
            for note in notes { context.io.printError(ShellMessages.note("\(note)")) }
            if let schema = declaration.parameters { try checkObject(schema) }
            return declaration
        } catch let error as FunctionDeclarationError {
            throw CommandFailure(kind: .schemaError, message: "tool: '\(name)' \(error)")
        }
    }

    private static func checkObject(_ schema: GeminiSchema) throws {
        guard schema.jsonValue["type"]?.stringValue == "OBJECT" else {
            throw CommandFailure(
                kind: .schemaError,
                message: "tool: the parameters must be an object type, like { city: string }")
        }
    }

    private static func readJSON(_ path: String) throws -> JSONValue {
        let data = try ExtractCommand.readFile(path, command: "tool", limit: SchemaSource.maximumFileBytes)
        do {
            return try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw CommandFailure(
                kind: .schemaError, message: "tool: \(path):\(error.line):\(error.column): \(error.message)")
        }
    }

    /// `SPEC "DESCRIPTION"` split in two; the description `nil` when the text does not end
    /// with a quoted part after something else.
    static func splitDescription(_ text: String) -> (String, String?) {
        let scalars = Array(text.unicodeScalars)
        guard let quote = scalars.last, quote == "\"" || quote == "'", scalars.count >= 2 else {
            return (text, nil)
        }
        var index = scalars.count - 2
        while index >= 0 {
            if scalars[index] == quote, index == 0 || scalars[index - 1] != "\\" { break }
            index -= 1
        }
        guard index > 0 else { return (text, nil) }
        var spec = String(String.UnicodeScalarView(scalars[..<index]))
        while spec.last?.isWhitespace == true { spec.removeLast() }
        guard !spec.isEmpty else { return (text, nil) }
        let inner = String(String.UnicodeScalarView(scalars[(index + 1)..<(scalars.count - 1)]))
        return (spec, inner.replacingOccurrences(of: "\\\(quote)", with: "\(quote)"))
    }
}
