import SophonCore

/// One entry of a request's `tools` array (docs/library.md, "Tools"): function declarations
/// and the built-in tools that run on Google's side (`codeExecution`, `googleSearch`,
/// `urlContext`, each sent as an empty object `{}`).
public struct Tool: Codable, Sendable, Hashable {
    /// Functions the model may call; the client runs them and sends the results back.
    public var functionDeclarations: [FunctionDeclaration]?
    /// `{}` enables code execution (Python run by Google; the parts come back in the reply).
    @JSONField public var codeExecution: JSONValue?
    /// `{}` enables Google Search grounding (sources in the candidate's `groundingMetadata`).
    @JSONField public var googleSearch: JSONValue?
    /// `{}` enables URL context (URLs written in the prompt are fetched).
    @JSONField public var urlContext: JSONValue?

    /// Creates a tool entry; give declarations, built-ins, or both.
    public init(
        functionDeclarations: [FunctionDeclaration]? = nil, codeExecution: JSONValue? = nil,
        googleSearch: JSONValue? = nil, urlContext: JSONValue? = nil
    ) {
        self.functionDeclarations = functionDeclarations
        self.codeExecution = codeExecution
        self.googleSearch = googleSearch
        self.urlContext = urlContext
    }

    /// The tool as the JSON sent on the wire, keys in declaration order, absent fields omitted.
    public var jsonValue: JSONValue {
        var members: [JSONMember] = []
        if let functionDeclarations {
            members.append(JSONMember("functionDeclarations", .array(functionDeclarations.map(\.jsonValue))))
        }
        if let codeExecution { members.append(JSONMember("codeExecution", codeExecution)) }
        if let googleSearch { members.append(JSONMember("googleSearch", googleSearch)) }
        if let urlContext { members.append(JSONMember("urlContext", urlContext)) }
        return .object(members)
    }
}

/// A function the model may call: `{"name", "description", "parameters" | "parametersJsonSchema"}`.
///
/// `name`: letters, digits, `_ : . -`, at most 64 characters (the API's rule). `parameters` is
/// the OpenAPI-subset schema of the arguments object; `parametersJsonSchema` a JSON Schema for
/// it; send one of them, or neither for a function without arguments.
public struct FunctionDeclaration: Codable, Sendable, Hashable {
    /// The function name.
    public var name: String
    /// What the function does; the model reads it to choose.
    public var description: String?
    /// The arguments object as a Gemini Schema.
    public var parameters: GeminiSchema?
    /// The arguments object as JSON Schema (exclusive with `parameters`).
    @JSONField public var parametersJsonSchema: JSONValue?

    /// Creates a declaration.
    public init(
        name: String, description: String? = nil, parameters: GeminiSchema? = nil,
        parametersJsonSchema: JSONValue? = nil
    ) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.parametersJsonSchema = parametersJsonSchema
    }

    /// Whether `name` is one the API accepts: 1 to 64 of letters, digits, `_`, `:`, `.`, `-`,
    /// starting with a letter or `_`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64 else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
        }
        guard isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            isLetter($0) || ("0"..."9").contains($0) || $0 == ":" || $0 == "." || $0 == "-"
        }
    }

    /// The declaration as sent on the wire, keys in order `name`, `description`, `parameters`,
    /// `parametersJsonSchema`; absent fields omitted.
    public var jsonValue: JSONValue {
        var members = [JSONMember("name", .string(name))]
        if let description { members.append(JSONMember("description", .string(description))) }
        if let parameters { members.append(JSONMember("parameters", parameters.jsonValue)) }
        if let parametersJsonSchema {
            members.append(JSONMember("parametersJsonSchema", parametersJsonSchema))
        }
        return .object(members)
    }

    /// The problems of `arguments` against the declared parameters, as readable lines (empty:
    /// valid). A JSON Schema declaration is not checked here.
    public func violations(of arguments: JSONValue) -> [String] {
        guard let parameters else { return [] }
        return parameters.validate(arguments).map { "\($0)" }
    }
}

/// `toolConfig`: how the model may use the declared functions.
public struct ToolConfig: Codable, Sendable, Hashable {
    /// The function-calling mode and the allowed names.
    public var functionCallingConfig: FunctionCallingConfig?

    /// Creates a tool configuration.
    public init(functionCallingConfig: FunctionCallingConfig? = nil) {
        self.functionCallingConfig = functionCallingConfig
    }

    /// The configuration as sent on the wire.
    public var jsonValue: JSONValue {
        guard let config = functionCallingConfig else { return .object([]) }
        var members = [JSONMember("mode", .string(config.mode.rawValue))]
        if let names = config.allowedFunctionNames {
            members.append(JSONMember("allowedFunctionNames", .array(names.map { .string($0) })))
        }
        return .object([JSONMember("functionCallingConfig", .object(members))])
    }
}

/// `functionCallingConfig`: `{"mode", "allowedFunctionNames"?}`.
public struct FunctionCallingConfig: Codable, Sendable, Hashable {
    /// `AUTO` (text or a call; the default), `ANY` (always a call), `NONE` (no calls),
    /// `VALIDATED` (text or a call constrained to the schema).
    public enum Mode: String, Codable, Sendable, Hashable, CaseIterable {
        /// The model chooses text or a call.
        case auto = "AUTO"
        /// The model always calls a function.
        case any = "ANY"
        /// The model calls no function.
        case none = "NONE"
        /// Text or a call whose arguments follow the schema.
        case validated = "VALIDATED"
    }

    /// The mode.
    public var mode: Mode
    /// The functions the model may call; only with `ANY` or `VALIDATED`.
    public var allowedFunctionNames: [String]?

    /// Creates a configuration.
    public init(mode: Mode, allowedFunctionNames: [String]? = nil) {
        self.mode = mode
        self.allowedFunctionNames = allowedFunctionNames
    }
}
