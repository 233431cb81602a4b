import SophonCore

/// Why a tool cannot become a declaration (``FunctionDeclaration/converting(name:description:inputSchema:sendUnconvertible:)``).
public enum FunctionDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is not one the API accepts (``FunctionDeclaration/isValidName(_:)``).
    case invalidName(String)
    /// The converter cannot take the input schema.
    case inputSchema(GeminiSchemaError)

    /// The one sentence for it, said the same way for MCP tools, plugin tools and `tool @FILE`:
    /// `not a valid function name (...)` or `input schema PATH: REASON`.
    public var description: String {
        switch self {
        case .invalidName:
            "not a valid function name (letters, digits, _ : . -; at most 64; a letter or _ first)"
        case .inputSchema(let error): "input schema " + error.description
        }
    }
}

extension FunctionDeclaration {
    /// The one conversion of a tool's JSON Schema into a declaration, for MCP tools
    /// (docs/mcp.md, "Tools"), plugin tools (docs/plugin-protocol.md) and `tool NAME @FILE` /
    /// `tool @FILE` (docs/commands.md, "Tools").
    ///
    /// The schema is read by ``GeminiSchemaDocument`` (Gemini Schema, or JSON Schema through
    /// ``JSONSchemaConverter``); an object schema without properties sends no parameters. One
    /// rule for what it cannot take, with one reason text (``FunctionDeclarationError``): an
    /// MCP tool is refused and not offered (docs/mcp.md); a schema the user wrote (`tool @FILE`,
    /// a plugin's manifest) goes as written in `parametersJsonSchema` when `sendUnconvertible`
    /// is set (docs/commands.md, "Tools": "`parameters` when the converter takes it, else
    /// `parametersJsonSchema`").
    /// - Parameters:
    ///   - name: the function's name.
    ///   - description: what it does; an empty one is left out.
    ///   - inputSchema: the schema of the arguments object, if any.
    ///   - sendUnconvertible: send a schema the converter cannot take as `parametersJsonSchema`
    ///     instead of throwing (default `false`).
    /// - Returns: the declaration and what conversion dropped or changed.
    /// - Throws: ``FunctionDeclarationError``.
    public static func converting(
        name: String, description: String?, inputSchema: JSONValue?, sendUnconvertible: Bool = false
    ) throws(FunctionDeclarationError) -> (declaration: FunctionDeclaration, notes: [GeminiSchemaIssue]) {
        guard isValidName(name) else { throw .invalidName(name) }
        var declaration = FunctionDeclaration(
            name: name, description: description?.isEmpty == false ? description : nil)
        guard let schema = inputSchema else { return (declaration, []) }
        if case .object(let properties)? = schema["properties"], properties.isEmpty {
            return (declaration, [])
        }
        if schema["properties"] == nil, schema["type"]?.stringValue?.lowercased() == "object",
            schema["$ref"] == nil
        {
            return (declaration, [])
        }
        do {
            let document = try GeminiSchemaDocument(schema)
            declaration.parameters = document.schema
            return (declaration, document.notes)
        } catch {
            guard sendUnconvertible else { throw .inputSchema(error) }
            declaration.parametersJsonSchema = schema
            return (declaration, [])
        }
    }
}
