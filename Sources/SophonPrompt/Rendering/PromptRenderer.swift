import SophonCore

/// Renders a ``PromptDocument`` with data and options into Dotprompt's rendered-prompt value:
/// the metadata (frontmatter merged with the options: `config` merged key by key, other keys
/// replaced), Picoschema in `input.schema` and `output.schema` turned into JSON Schema, and
/// `messages` (Dotprompt's `render`).
public struct PromptRenderer: Sendable {
    /// Named schemas for Picoschema (`--schemas`).
    public var schemas: [String: JSONValue]
    /// Tool definitions by name (`--tools`); listed in `toolDefs` when the prompt names them.
    public var tools: [String: JSONValue]
    /// Partials by name, looked up before `partialResolver`.
    public var partials: [String: String]
    /// Finds a partial not in `partials` (for a file: `_name.prompt` beside it).
    public var partialResolver: TemplateRenderer.PartialResolver

    /// A renderer with these registries.
    public init(
        schemas: [String: JSONValue] = [:], tools: [String: JSONValue] = [:],
        partials: [String: String] = [:],
        partialResolver: @escaping TemplateRenderer.PartialResolver = { _ in nil }
    ) {
        self.schemas = schemas
        self.tools = tools
        self.partials = partials
        self.partialResolver = partialResolver
    }

    /// The rendered prompt of `document`.
    /// - Parameters:
    ///   - document: the parsed file.
    ///   - data: `{"input", "context", "messages", "docs"}` (each optional): `input` is the
    ///     template's data, `context`'s members are `@` variables (`@state`), `messages` the history.
    ///   - options: metadata overriding the frontmatter (`model`, `config`, `input.default`, ...).
    /// - Returns: an object: the metadata members, then `messages`.
    /// - Throws: ``PromptError`` (template, helper, partial, Picoschema errors, at FILE:LINE:COL).
    public func render(
        _ document: PromptDocument, data: JSONValue = .object([]), options: JSONValue = .object([])
    )
        throws(PromptError) -> JSONValue
    {
        var metadata = document.metadata
        if case .object(let overrides) = options {
            for member in overrides {
                if member.key == "config",
                    case .object(var merged) = Self.member(metadata, "config") ?? .object([]),
                    case .object(let more) = member.value
                {
                    for item in more { Self.set(&merged, item.key, item.value) }
                    Self.set(&metadata, "config", .object(merged))
                } else {
                    Self.set(&metadata, member.key, member.value)
                }
            }
        }
        try convertSchemas(&metadata, document: document)
        if case .array(let names) = Self.member(metadata, "tools") ?? .null {
            let definitions = names.compactMap { $0.stringValue.flatMap { tools[$0] } }
            if !definitions.isEmpty { Self.set(&metadata, "toolDefs", .array(definitions)) }
        }
        var input = Self.member(metadata, "input")?["default"] ?? .object([])
        if case .object(let given) = data["input"] ?? .null, case .object(var merged) = input {
            for item in given { Self.set(&merged, item.key, item.value) }
            input = .object(merged)
        } else if let given = data["input"] {
            input = given
        }
        var variables: [String: JSONValue] = [:]
        if case .object(let context) = data["context"] ?? .null {
            for member in context { variables[member.key] = member.value }
        }
        variables["metadata"] = .object([
            JSONMember("prompt", .object(metadata)), JSONMember("docs", data["docs"] ?? .null),
            JSONMember("messages", data["messages"] ?? .null),
        ])
        let partials = partials
        let resolver = partialResolver
        let renderer = TemplateRenderer(file: document.file, dataVariables: variables) {
            name throws(PromptError) in
            if let known = partials[name] { return known }
            return try resolver(name)
        }
        let nodes = try TemplateParser.parse(
            document.template, file: document.file, lineOffset: document.templateLineOffset,
            columnOffset: document.templateColumnOffset)
        let text = try renderer.render(nodes, root: input)
        var history: [JSONValue] = []
        if case .array(let messages) = data["messages"] ?? .null { history = messages }
        return .object(
            metadata + [JSONMember("messages", .array(PromptMessages.messages(text, history: history)))])
    }

    /// `input.schema` and `output.schema` from Picoschema to JSON Schema.
    func convertSchemas(_ metadata: inout [JSONMember], document: PromptDocument) throws(PromptError) {
        let converter = Picoschema(schemas: schemas)
        for key in ["input", "output"] {
            guard let section = Self.member(metadata, key), let schema = section["schema"] else { continue }
            do {
                let converted = try converter.jsonSchema(schema)
                Self.set(&metadata, key, Picoschema.setting(section, "schema", converted))
            } catch {
                let location = Self.location(of: error.type, in: document)
                throw PromptError(
                    .unknownSchemaType, error.description, file: document.file, line: location.line,
                    column: location.column)
            }
        }
    }

    /// Where `text` first appears in the frontmatter (1:1 when it does not).
    static func location(of text: String, in document: PromptDocument) -> (line: Int, column: Int) {
        guard case .some = document.raw else { return (1, 1) }
        let lines = document.frontmatterLines
        for (offset, line) in lines.enumerated() {
            if let range = line.range(of: text) {
                return (
                    offset + 1 + document.frontmatterLineOffset,
                    line.distance(from: line.startIndex, to: range.lowerBound) + 1
                )
            }
        }
        return (1, 1)
    }

    static func member(_ members: [JSONMember], _ key: String) -> JSONValue? {
        members.last { $0.key == key }?.value
    }

    static func set(_ members: inout [JSONMember], _ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
    }
}
