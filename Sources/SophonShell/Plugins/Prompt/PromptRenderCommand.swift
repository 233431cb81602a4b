import Foundation
import SophonCore
import SophonPrompt

/// `prompt render FILE [--data JSON|@FILE] [--options JSON|@FILE] [--schemas JSON|@FILE]
/// [--tools JSON|@FILE]` (docs/prompts.md): the rendered prompt in Dotprompt's JSON shape, the
/// shape a Dotprompt spec case's `expect` holds. Partials are `_NAME.prompt` beside FILE.
enum PromptRenderCommand {
    /// The options of `prompt render`.
    static let declared = [
        CommandOption(
            name: "--data", value: "JSON",
            help: "the data: {input, context, messages, docs} (inline or @FILE)",
            missing: "JSON or @FILE"),
        CommandOption(
            name: "--options", value: "JSON", help: "metadata overriding the frontmatter (inline or @FILE)",
            missing: "JSON or @FILE"),
        CommandOption(
            name: "--schemas", value: "JSON", help: "named schemas for Picoschema: name -> JSON Schema",
            missing: "JSON or @FILE"),
        CommandOption(
            name: "--tools", value: "JSON", help: "tool definitions: name -> definition",
            missing: "JSON or @FILE"),
    ]

    static func run(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        let parsed = try CommandOption.parse(request, command: "prompt render", declared: declared)
        guard parsed.operands.first == "render" else {
            throw CommandFailure(kind: .usage, message: "prompt: expected 'render FILE'")
        }
        guard parsed.operands.count == 2 else {
            throw CommandFailure(kind: .usage, message: "prompt render: needs one FILE")
        }
        let path = context.resolve(parsed.operands[1])
        let data = try self.data(parsed.value("--data"), command: "prompt render", context: context)
        let options = try object(parsed.value("--options"), option: "--options", context: context)
        let renderer = PromptRenderer(
            schemas: try registry(parsed.value("--schemas"), option: "--schemas", context: context),
            tools: try registry(parsed.value("--tools"), option: "--tools", context: context),
            partialResolver: PromptFile.partials(besides: path, shownAs: parsed.operands[1]))
        do {
            return .value(
                try renderer.render(
                    try PromptFile.load(path, shownAs: parsed.operands[1]), data: data, options: options))
        } catch {
            throw CommandFailure(kind: PromptTemplate.failure(error).kind, message: "prompt render: \(error)")
        }
    }

    /// An object option's members by name.
    static func registry(_ text: String?, option: String, context: CommandContext) throws -> [String:
        JSONValue]
    {
        guard case .object(let members) = try object(text, option: option, context: context) else {
            return [:]
        }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// An option that must be a JSON object (`--options`, `--schemas`, `--tools`); `{}` when not
    /// given. Anything else is an error where the value starts, never ignored.
    static func object(_ text: String?, option: String, context: CommandContext) throws -> JSONValue {
        guard let read = try source(text, option: option, context: context, command: "prompt render") else {
            return .object([])
        }
        guard case .object = read.value else {
            throw CommandFailure(
                kind: .invalidInput,
                message:
                    "prompt render: \(read.name):\(read.start.line):\(read.start.column): expected a JSON object, "
                    + "got \(PromptData.described(read.value))")
        }
        return read.value
    }

    /// The JSON of an option: inline, or `@FILE`; errors at FILE:LINE:COL.
    static func json(
        _ text: String?, option: String, context: CommandContext, command: String = "prompt render"
    )
        throws -> JSONValue?
    {
        try source(text, option: option, context: context, command: command)?.value
    }

    /// `--data` (`prompt render`, `prompt FILE`, `compare --prompts`): Dotprompt's data argument,
    /// checked (``PromptData``: an object of `input`, `context`, `messages`, `docs`; never
    /// silently ignored); `{}` when not given. An object none of whose members is one of those
    /// is the template's values alone, read as `{"input": OBJECT}` (`--data '{"name": "Ann"}'`).
    /// - Throws: ``CommandFailure`` (`invalidInput`): `COMMAND: --data:1:1: expected a JSON
    ///   object {...}, got an array` (the file's path for `@FILE`).
    static func data(_ text: String?, command: String, context: CommandContext) throws -> JSONValue {
        guard let read = try source(text, option: "--data", context: context, command: command) else {
            return .object([])
        }
        if case .object(let members) = read.value, !members.isEmpty,
            !members.contains(where: { PromptData.members.contains($0.key) })
        {
            return .object([JSONMember("input", read.value)])
        }
        do {
            try PromptData.check(read.value, file: read.name, location: read.start)
        } catch {
            throw CommandFailure(kind: .invalidInput, message: "\(command): \(error)")
        }
        return read.value
    }

    /// An option's JSON, the name its errors give (the option, or the `@FILE` path) and where
    /// the value starts (its first non-blank character).
    private static func source(_ text: String?, option: String, context: CommandContext, command: String)
        throws -> (value: JSONValue, name: String, start: PromptLocation)?
    {
        guard let text else { return nil }
        var source = text
        var name = option
        if let path = try ExtractCommand.filePath(text, command: command, context: context) {
            let data = try ExtractCommand.readFile(path, command: command)
            source = String(decoding: data, as: UTF8.self)
            name = path
        }
        do {
            let value = try JSONValue(parsing: source)
            var start = PromptLocation(line: 1, column: 1)
            for character in source {
                guard character.isWhitespace else { break }
                if character.isNewline {
                    start = PromptLocation(line: start.line + 1, column: 1)
                } else {
                    start.column += 1
                }
            }
            return (value, name, start)
        } catch {
            throw CommandFailure(
                kind: .invalidInput,
                message: "\(command): \(name):\(error.line):\(error.column): \(error.message)")
        }
    }
}
