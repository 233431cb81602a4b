import Foundation
import SophonCore
import SophonGemini
import SophonPrompt

/// `prompt save [--force] FILE` (docs/prompts.md): the session's last turn as a
/// prompt file, as it was sent (``LastTurnSettings``): the model, the per-call settings that
/// differ from the defaults (a prompt file's `config` over the session's), the system
/// instruction, the schema (Picoschema when it says the same schema, else JSON Schema) or JSON
/// mode, the declared functions (`tools` and `toolDefs`) and the contents (a chat's history as
/// `{{role}}` blocks). `prompt FILE` then sends the same request. FILE is refused when it is a
/// folder, its folder does not exist (``OutputFolder``), or it exists without `--force`.
enum PromptSaveCommand {
    /// The options of `prompt save`.
    static let declared = [CommandOption(name: "--force", help: "replace FILE when it exists")]

    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        var words = request.arguments
        if words.first == request.name { words.removeFirst() }
        if words.first == "save" { words.removeFirst() }
        var request = request
        request.arguments = words
        let parsed = try CommandOption.parse(request, command: "prompt save", declared: declared)
        guard parsed.operands.count == 1, let file = parsed.operands.first else {
            throw context.usageFailure("prompt")
        }
        // `prompt save ""` is no name (it resolved to the current folder).
        guard !file.isEmpty else {
            throw CommandFailure(kind: .usage, message: "prompt save: needs a file name")
        }
        let path = context.resolve(file)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists, isFolder.boolValue {
            throw CommandFailure(
                kind: .fileError, message: "prompt save: '\(file)' is a folder, not a file")
        }
        try OutputFolder.require(path, command: "prompt save")
        if !parsed.has("--force"), exists {
            throw CommandFailure(
                kind: .fileError, message: "prompt save: \(file) exists (--force replaces it)")
        }
        let text = try document(context.session)
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(kind: .fileError, message: "prompt save: \(error)")
        }
        // A state change (docs/language.md, as `save FILE`): nothing on stdout; interactive
        // sessions confirm on stderr.
        if context.mode == .interactive { context.io.printError("saved \(file)") }
        return .none
    }

    /// The prompt file's text for `session`: its last turn as sent (``LastTurnSettings``).
    static func document(_ session: ShellSession) throws -> String {
        let (turn, sent) = session.withGeminiState { ($0.lastTurn, $0.lastTurnSettings) }
        guard !turn.isEmpty, let sent else {
            throw CommandFailure(
                kind: .invalidInput, message: "prompt save: nothing asked yet in this session")
        }
        var front = ["model: googleai/\(sent.model)"]
        let config = sent.generation
        if let config {
            var members: [JSONMember] = []
            if let value = config.temperature { members.append(JSONMember("temperature", number(value))) }
            if let value = config.maxOutputTokens {
                members.append(JSONMember("maxOutputTokens", .number(JSONNumber(value))))
            }
            if let value = config.topP { members.append(JSONMember("topP", number(value))) }
            if let value = config.topK { members.append(JSONMember("topK", .number(JSONNumber(value)))) }
            if let value = config.stopSequences {
                members.append(JSONMember("stopSequences", .array(value.map(JSONValue.string))))
            }
            if let value = config.seed { members.append(JSONMember("seed", .number(JSONNumber(value)))) }
            if let value = config.presencePenalty {
                members.append(JSONMember("presencePenalty", number(value)))
            }
            if let value = config.frequencyPenalty {
                members.append(JSONMember("frequencyPenalty", number(value)))
            }
            if !members.isEmpty { front.append("config: \(JSONValue.object(members).compactText)") }
        }
        if let schema = sent.schema {
            front += ["output:", "  format: json"]
            if let lines = SchemaSideBySide.picoschema(schema, indent: "    "), saysTheSame(lines, as: schema)
            {
                front += ["  schema:"] + lines
            } else {
                front.append("  schema: \(schema.jsonSchemaValue.compactText)")
            }
        } else if config?.responseMimeType == "application/json" {
            // A prompt file's `output.format: json` without a schema: JSON mode.
            front += ["output:", "  format: json"]
        }
        let functions = sent.declarations
        if !functions.isEmpty {
            front.append("tools: \(JSONValue.array(functions.map { .string($0.name) }).compactText)")
            front.append("toolDefs: \(JSONValue.array(functions.map(toolDefinition)).compactText)")
        }
        var blocks: [(role: String, text: String)] = []
        if let system = sent.system { blocks.append(("system", try parts(system))) }
        for content in turn { blocks.append((content.role ?? "user", try parts(content))) }
        return (["---"] + front + ["---"]).joined(separator: "\n") + "\n" + body(blocks) + "\n"
    }

    /// A message's parts as template text: each text as it is, each media part sent by URL as
    /// `{{media}}`.
    /// - Throws: ``CommandFailure`` (`invalidInput`) for another part (inline or uploaded
    ///   media, a function call).
    static func parts(_ content: Content) throws -> String {
        let pieces = try (content.parts ?? []).map { part in
            if let file = part.fileData, part == Part(fileData: file) { return try media(file) }
            guard let text = part.text, part == .text(text) else {
                throw CommandFailure(
                    kind: .invalidInput,
                    message: "prompt save: only text and https:// media parts can be saved so far")
            }
            return try literal(text)
        }
        // A backslash right before `{{media}}` would escape it.
        for (piece, next) in zip(pieces, pieces.dropFirst())
        where piece.hasSuffix("\\") && next.hasPrefix("{{") {
            throw CommandFailure(
                kind: .invalidInput,
                message:
                    "prompt save: a message's text ends in '\\' before media, which a template cannot say")
        }
        return pieces.joined()
    }

    /// The `{{role}}` blocks, each text exactly as it goes: a block starts on its own line with
    /// `{{~role}}` (the line break dropped) unless the text before it ends in white space, which
    /// `~` would drop too.
    static func body(_ blocks: [(role: String, text: String)]) -> String {
        var body = ""
        for block in blocks {
            if body.isEmpty || body.last?.isWhitespace == true {
                body += "{{role \"\(block.role)\"}}"
            } else {
                body += "\n{{~role \"\(block.role)\"}}"
            }
            body += block.text
        }
        return body
    }

    /// A declared function as a Dotprompt tool definition: `name`, `description`, `inputSchema`
    /// (JSON Schema; `prompt FILE` sends it back as the same `parameters`).
    static func toolDefinition(_ function: FunctionDeclaration) -> JSONValue {
        var members = [JSONMember("name", .string(function.name))]
        if let description = function.description {
            members.append(JSONMember("description", .string(description)))
        }
        if let input = function.parameters?.jsonSchemaValue ?? function.parametersJsonSchema {
            members.append(JSONMember("inputSchema", input))
        }
        return .object(members)
    }

    /// A finite number as JSON.
    static func number(_ value: Double) -> JSONValue {
        JSONNumber(value).map(JSONValue.number) ?? .null
    }

    /// Whether the Picoschema `lines` read back as `schema` (else the JSON Schema is written).
    static func saysTheSame(_ lines: [String], as schema: GeminiSchema) -> Bool {
        guard let yaml = try? YAMLReader.read(lines.joined(separator: "\n"), file: "schema"),
            let jsonSchema = try? Picoschema().jsonSchema(yaml),
            let read = try? GeminiSchemaDocument(jsonSchema).schema
        else { return false }
        return read == schema
    }

    /// A media part sent by URL (`attach https://...`) as `{{media url="U" contentType="T"}}`,
    /// which `prompt FILE` sends back as the same `fileData`.
    static func media(_ file: FileData) throws -> String {
        let values = [file.fileUri] + (file.mimeType.map { [$0] } ?? [])
        guard file.fileUri.hasPrefix("https://"),
            !values.contains(where: { $0.contains("\"") || $0.contains("}") })
        else {
            throw CommandFailure(
                kind: .invalidInput,
                message: "prompt save: the media '\(file.fileUri)' cannot be said in a template")
        }
        return "{{media url=\"\(file.fileUri)\"" + (file.mimeType.map { " contentType=\"\($0)\"" } ?? "")
            + "}}"
    }

    /// Text the template prints as it is: each `{{` escaped as `\{{` (Handlebars' escape, which
    /// prints the text up to the next `{{`). A `{{` after a backslash cannot be said (`\\{{` is
    /// a backslash and a tag), so it is refused rather than changed.
    static func literal(_ text: String) throws -> String {
        guard !text.contains("\\{{") else {
            throw CommandFailure(
                kind: .invalidInput,
                message: "prompt save: a message holds '\\{{', which a template cannot say")
        }
        return text.replacingOccurrences(of: "{{", with: "\\{{")
    }
}
