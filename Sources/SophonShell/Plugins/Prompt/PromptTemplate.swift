import Foundation
import SophonCore
import SophonGemini
import SophonPrompt

/// A prompt file loaded to ask with (docs/prompts.md): `prompt FILE` renders it once, `run
/// --prompt FILE` once per input line. The frontmatter's model and `config` are the same for
/// every rendering; each rendering gives the turn: the contents, the system message and the
/// output schema.
struct PromptTemplate: Sendable {
    /// The turn one rendering sends.
    struct Turn: Sendable {
        /// The `user` and `model` messages, in order.
        var contents: [Content]
        /// The `system` message (the last one when there are several).
        var system: Content?
        /// `output.schema`, when the file has one.
        var schema: GeminiSchema?
        /// What Gemini's schema could not say of `output.schema` (dropped `additionalProperties`,
        /// ...), for `note:` lines.
        var notes: [GeminiSchemaIssue] = []
    }

    /// The file as the user gave it, for messages.
    var file: String
    /// The parsed file.
    var document: PromptDocument
    /// Renders it, with the partials beside the file.
    var renderer: PromptRenderer

    /// The frontmatter's `config` members Gemini takes per call (temperature, maxOutputTokens,
    /// topP, topK, stopSequences, seed, penalties), checked when the file was loaded, and
    /// `responseMimeType` `application/json` for `output.format: json` (a JSON answer, with or
    /// without `output.schema`).
    var generation = GenerationConfig()

    /// Loads the file at `path` (resolved), shown as `file` in messages, and checks its
    /// `config` (``PromptConfig``) and its `model` (``checkModel()``).
    /// - Throws: ``CommandFailure`` (`fileError`, `parseError`, `invalidSetting`,
    ///   `invalidModelID`) at FILE:LINE:COL.
    static func load(_ path: String, shownAs file: String) throws -> PromptTemplate {
        let template: PromptTemplate
        do {
            let document = try PromptFile.load(path, shownAs: file)
            var loaded = PromptTemplate(
                file: file, document: document,
                renderer: PromptRenderer(partialResolver: PromptFile.partials(besides: path, shownAs: file)))
            loaded.generation = try PromptConfig.generation(of: document)
            if loaded.asksForJSON { loaded.generation.responseMimeType = "application/json" }
            template = loaded
        } catch {
            throw failure(error)
        }
        try template.checkModel()
        return template
    }

    /// The frontmatter's `model` must be a model ID the call can send (`googleai/` or
    /// `vertexai/` and a well-formed ID, or `custom:ID`), or absent (`null`, `~`): anything else
    /// would be dropped for the session's model, or fail every call of `run --prompt` and
    /// `compare --prompts` one by one, so it fails the file at the value's place, before
    /// anything is sent.
    /// - Throws: ``CommandFailure`` (`invalidModelID`): `FILE:LINE:COL: model: expected a model
    ///   ID (a string), got 5`, `FILE:LINE:COL: model: 'openai/gpt-4' is not a valid model ID`.
    func checkModel() throws {
        guard let value = document.metadata.last(where: { $0.key == "model" })?.value, value != .null else {
            return
        }
        let place = document.locations[["model"]] ?? PromptLocation(line: 1, column: 1)
        let at = "\(file):\(place.line):\(place.column): model:"
        guard value.stringValue != nil, let model else {
            throw CommandFailure(
                kind: .invalidModelID,
                message: "\(at) expected a model ID (a string), got \(value.compactText)")
        }
        guard GeminiModel.isWellFormedID(GeminiModel(selection: model).id) else {
            throw CommandFailure(
                kind: .invalidModelID,
                message: "\(at) " + ShellMessages.invalidModelID(value.stringValue ?? model))
        }
    }

    /// A ``PromptError`` as a command failure: `FILE:LINE:COL: message`.
    static func failure(_ error: PromptError) -> CommandFailure {
        let kind: ShellErrorKind =
            switch error.kind {
            case .file: .fileError
            case .unknownSchemaType: .schemaError
            case .config: .invalidSetting
            case .data: .invalidInput
            default: .parseError
            }
        return CommandFailure(kind: kind, message: "\(error)")
    }

    /// The frontmatter's `model` as a Gemini model ID (`googleai/` or `vertexai/` dropped).
    var model: String? {
        guard let name = document.metadata.last(where: { $0.key == "model" })?.value.stringValue else {
            return nil
        }
        for prefix in ["googleai/", "vertexai/"] where name.hasPrefix(prefix) {
            return String(name.dropFirst(prefix.count))
        }
        return name
    }

    /// Whether the frontmatter has an `output.schema` (the answer is JSON).
    var hasOutputSchema: Bool {
        document.metadata.last(where: { $0.key == "output" })?.value["schema"] != nil
    }

    /// Whether the frontmatter asks for a JSON answer: `output.format: json` (Dotprompt's
    /// formats; `text` and the others ask for nothing) or an `output.schema`.
    var asksForJSON: Bool {
        let output = document.metadata.last(where: { $0.key == "output" })?.value
        return hasOutputSchema || output?["format"]?.stringValue?.lowercased() == "json"
    }

    /// The frontmatter's `toolDefs` (Dotprompt's tool definitions: `name`, `description`,
    /// `inputSchema` as JSON Schema) as Gemini function declarations: `inputSchema` goes as
    /// `parameters` when Sophon's schema reading takes it whole (it reads back as the same JSON
    /// Schema), else as `parametersJsonSchema`.
    /// - Throws: ``CommandFailure`` (`invalidInput`) for a definition without a valid name.
    func functions() throws -> [FunctionDeclaration] {
        let definitions = Self.elements(document.metadata.last(where: { $0.key == "toolDefs" })?.value)
        return try definitions.enumerated().map { index, definition in
            guard let name = definition["name"]?.stringValue, FunctionDeclaration.isValidName(name) else {
                throw CommandFailure(
                    kind: .invalidInput,
                    message: "\(file): toolDefs[\(index)] needs a function name (letters, digits, _ : . -)")
            }
            var declaration = FunctionDeclaration(
                name: name, description: definition["description"]?.stringValue)
            if let input = definition["inputSchema"] {
                if let schema = try? GeminiSchemaDocument(input).schema, schema.jsonSchemaValue == input {
                    declaration.parameters = schema
                } else {
                    declaration.parametersJsonSchema = input
                }
            }
            return declaration
        }
    }

    /// The turn of `data` (`{input, context, messages}`): `input.schema` checks the input first
    /// (its defaults filled in), and `named` (the names typed as `NAME=VALUE`) against the names
    /// it declares.
    /// - Throws: ``CommandFailure`` without a command prefix: `FILE: input $.year: expected
    ///   integer, got string "soon"` (`invalidInput`), a render error at FILE:LINE:COL, `FILE:
    ///   renders to no message to send`.
    func turn(_ data: JSONValue, named: [String] = []) throws -> Turn {
        let rendered: JSONValue
        do {
            rendered = try renderer.render(document, data: data)
        } catch {
            throw Self.failure(error)
        }
        try checkInput(rendered, given: data["input"], named: named)
        var turn = Turn(contents: [])
        for message in Self.elements(rendered["messages"]) {
            let parts = try Self.elements(message["content"]).map(part)
            switch message["role"]?.stringValue {
            case "system": turn.system = Content(role: nil, parts: parts)
            case "model": turn.contents.append(Content(role: "model", parts: parts))
            case "user", "tool": turn.contents.append(Content(role: "user", parts: parts))
            case let role:
                // `{{role "assistant"}}` (another API's name) went out as a user turn, silently.
                throw CommandFailure(kind: .invalidInput, message: "\(file): \(Self.unknownRole(role))")
            }
        }
        guard !turn.contents.isEmpty else {
            throw CommandFailure(kind: .invalidInput, message: "\(file): renders to no message to send")
        }
        if let schema = rendered["output"]?["schema"] {
            let document = try geminiDocument(schema)
            turn.schema = document.schema
            turn.notes = document.notes
        }
        return turn
    }

    /// `input.schema` checks the input (its defaults filled in), and a closed schema the typed
    /// names `named`; the first issue names the field.
    func checkInput(_ rendered: JSONValue, given: JSONValue?, named: [String] = []) throws {
        guard let schema = rendered["input"]?["schema"] else { return }
        var input = rendered["input"]?["default"] ?? .object([])
        if case .object(var merged) = input, case .object(let more) = given ?? .null {
            for member in more {
                merged.removeAll { $0.key == member.key }
                merged.append(member)
            }
            input = .object(merged)
        } else if let given {
            input = given
        }
        if let (name, declared) = Self.undeclared(named, schema: schema) {
            throw CommandFailure(
                kind: .invalidInput,
                message: "\(file): input $.\(name): not in the input schema"
                    + ShellMessages.didYouMean(Suggestions.closest(to: name, in: declared).first))
        }
        if let issue = try geminiDocument(schema).schema.validate(input).first {
            throw CommandFailure(
                kind: .invalidInput, message: "\(file): input \(issue.path): \(issue.message)")
        }
    }

    /// The first of `names` (typed as `prompt FILE NAME=VALUE`) that a closed input schema
    /// (Picoschema's, `additionalProperties: false`) does not declare, with the names it
    /// declares: a typo such as `aeg=3` for an optional `age` fails instead of being dropped
    /// unseen. `nil` when every name is declared or the schema is open.
    static func undeclared(_ names: [String], schema: JSONValue) -> (String, [String])? {
        guard schema["additionalProperties"] == .bool(false),
            case .object(let declared)? = schema["properties"]
        else { return nil }
        let keys = declared.map(\.key)
        guard let name = names.first(where: { !keys.contains($0) }) else { return nil }
        return (name, keys)
    }

    /// A JSON Schema of the file as a ``GeminiSchema`` (the one conversion, `schema @FILE`'s).
    func geminiDocument(_ value: JSONValue) throws -> GeminiSchemaDocument {
        do {
            return try GeminiSchemaDocument(SchemaSideBySide.withoutClosedObjects(value))
        } catch {
            throw CommandFailure(kind: .schemaError, message: "\(file): \(error)")
        }
    }

    /// A rendered content part: text; media (`{{media url=U contentType=T}}`) with an `https://`
    /// URL as `fileData` (as `attach URL` sends it), with a base64 `data:` URL as `inlineData`.
    /// - Throws: ``CommandFailure`` (`invalidInput`) for another URL or part (a `{{section}}`).
    func part(_ value: JSONValue) throws -> Part {
        if let text = value["text"]?.stringValue { return .text(text) }
        guard let media = value["media"], let url = media["url"]?.stringValue else {
            throw CommandFailure(
                kind: .invalidInput,
                message: "\(file): only text and media parts can be sent, not \(value.compactText)")
        }
        let type = media["contentType"]?.stringValue
        if url.hasPrefix("https://") { return Part(fileData: FileData(mimeType: type, fileUri: url)) }
        if url.hasPrefix("data:"), let comma = url.firstIndex(of: ",") {
            let header = url[url.index(url.startIndex, offsetBy: 5)..<comma]
            if header.hasSuffix(";base64"),
                let data = Data(base64Encoded: String(url[url.index(after: comma)...]))
            {
                let declared = String(header.dropLast(";base64".count))
                return .inlineData(
                    mimeType: type ?? (declared.isEmpty ? "application/octet-stream" : declared), data: data)
            }
        }
        throw CommandFailure(
            kind: .invalidInput,
            message: "\(file): media '\(url.prefix(60))' must be an https:// URL or a base64 data: URL")
    }

    /// Why a message of `role` cannot be sent: Dotprompt's roles are `user`, `model`, `system`
    /// and `tool` (docs/prompts.md).
    static func unknownRole(_ role: String?) -> String {
        let roles = ["user", "model", "system", "tool"]
        let hint =
            role == "assistant"
            ? " (Gemini's name for it is 'model')"
            : ShellMessages.didYouMean(role.flatMap { Suggestions.closest(to: $0, in: roles).first })
        let shown = role.map { "'\($0)'" } ?? "(none)"
        return "a message of role \(shown) cannot be sent; the roles are user, model, system and tool" + hint
    }

    /// An array's elements; none for anything else.
    static func elements(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let items) = value ?? .null else { return [] }
        return items
    }
}
