import SophonCore

/// Why a tool cannot become a declaration (``FunctionDeclaration/converting(name:description:inputSchema:)``).
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
    /// rule for what it cannot take: the tool is refused with a
    /// ``FunctionDeclarationError`` (MCP and plugin tools are then not offered); a raw schema
    /// goes only where a declaration names it `parametersJsonSchema` itself.
    /// - Parameters:
    ///   - name: the function's name.
    ///   - description: what it does; an empty one is left out.
    ///   - inputSchema: the schema of the arguments object, if any.
    /// - Returns: the declaration and what conversion dropped or changed.
    /// - Throws: ``FunctionDeclarationError``.
    public static func converting(
        name: String, description: String?, inputSchema: JSONValue?
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
            throw .inputSchema(error)
        }
    }
}
