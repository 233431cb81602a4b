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
        let parsed = try CommandOption.parse(request, command: "prompt", declared: declared)
        guard parsed.operands.first == "render" else {
            throw CommandFailure(kind: .usage, message: "prompt: expected 'render FILE'")
        }
        guard parsed.operands.count == 2 else {
            throw CommandFailure(kind: .usage, message: "prompt render: needs one FILE")
        }
        let path = context.resolve(parsed.operands[1])
        let data = try json(parsed.value("--data"), option: "--data", context: context) ?? .object([])
        let options =
            try json(parsed.value("--options"), option: "--options", context: context) ?? .object([])
        let renderer = PromptRenderer(
            schemas: try registry(parsed.value("--schemas"), option: "--schemas", context: context),
            tools: try registry(parsed.value("--tools"), option: "--tools", context: context),
            partialResolver: PromptFile.partials(besides: path))
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
        guard case .object(let members) = try json(text, option: option, context: context) ?? .object([])
        else {
            throw CommandFailure(
                kind: .invalidInput, message: "prompt render: \(option) must be a JSON object")
        }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The JSON of an option: inline, or `@FILE`; errors at FILE:LINE:COL.
    static func json(_ text: String?, option: String, context: CommandContext) throws -> JSONValue? {
        guard let text else { return nil }
        var source = text
        var name = option
        if text.hasPrefix("@") {
            let path = context.resolve(String(text.dropFirst()))
            let data = try ExtractCommand.readFile(path, command: "prompt render")
            source = String(decoding: data, as: UTF8.self)
            name = path
        }
        do {
            return try JSONValue(parsing: source)
        } catch {
            throw CommandFailure(
                kind: .invalidInput,
                message: "prompt render: \(name):\(error.line):\(error.column): \(error.message)")
        }
    }
}
