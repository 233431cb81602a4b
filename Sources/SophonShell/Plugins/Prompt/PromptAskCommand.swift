import Foundation
import SophonCore
import SophonGemini
import SophonPrompt

/// `prompt [--dry-run] FILE [NAME=VALUE...] [--data JSON|@FILE]` (docs/prompts.md): renders
/// FILE and asks through `ask`'s path (``AskTurn``, the one turn builder): a `system` message is
/// the system instruction, the rest the contents; `model`, `config` and `output.schema` apply
/// to this call; `input.schema` checks the data first. The answer is `$last`.
enum PromptAskCommand {
    /// The options of `prompt FILE`.
    static let declared = [
        CommandOption(
            name: "--data", value: "JSON", help: "the data: {input, context, messages} (inline or @FILE)",
            missing: "JSON or @FILE"),
        CommandOption(name: "--dry-run", help: "print the request instead of sending it"),
    ]

    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws -> CommandResult
    {
        let parsed = try CommandOption.parse(request, command: "prompt", declared: declared)
        guard let file = parsed.operands.first else { throw context.usageFailure("prompt") }
        var data = try PromptRenderCommand.json(parsed.value("--data"), option: "--data", context: context)
        data = try withAssignments(Array(parsed.operands.dropFirst()), data: data ?? .object([]))
        let path = context.resolve(file)
        let rendered: JSONValue
        do {
            let document = try PromptFile.load(path, shownAs: file)
            rendered = try PromptRenderer(partialResolver: PromptFile.partials(besides: path))
                .render(document, data: data ?? .object([]))
        } catch {
            throw CommandFailure(kind: .parseError, message: "prompt: \(error)")
        }
        try checkInput(rendered, given: data?["input"], file: file)
        var options = AskCommands.Options(
            model: rendered["model"]?.stringValue.map(modelID), prompt: "",
            dryRun: context.session.settings.dryRun || parsed.has("--dry-run"))
        var contents: [Content] = []
        for message in elements(rendered["messages"]) {
            let parts = try elements(message["content"]).map { try part($0, file: file) }
            switch message["role"]?.stringValue {
            case "system": options.overrides.system = Content(role: nil, parts: parts)
            case "model": contents.append(Content(role: "model", parts: parts))
            default: contents.append(Content(role: "user", parts: parts))
            }
        }
        guard !contents.isEmpty else {
            throw CommandFailure(
                kind: .invalidInput, message: "prompt: \(file): renders to no message to send")
        }
        options.contents = contents
        options.overrides.generation = generation(rendered["config"])
        if let schema = rendered["output"]?["schema"] {
            options.schema = try geminiSchema(schema, file: file)
        }
        do {
            let (reply, _) = try await ExchangeLog.recording(
                "prompt", options: options, history: [], context: context
            ) {
                try await AskTurn.run(history: [], options: options, context: context, services: services)
            }
            return .reply(reply)
        } catch let dryRun as AskCommands.DryRun {
            return .text(dryRun.text)
        }
    }

    /// `NAME=VALUE` words set members of the data's `input` (VALUE read as JSON when it is JSON,
    /// else as text).
    static func withAssignments(_ words: [String], data: JSONValue) throws -> JSONValue {
        guard !words.isEmpty else { return data }
        guard case .object(var members) = data else {
            throw CommandFailure(kind: .invalidInput, message: "prompt: --data must be a JSON object")
        }
        var input: [JSONMember] = []
        if case .object(let given) = data["input"] ?? .null { input = given }
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw CommandFailure(kind: .usage, message: "prompt: expected NAME=VALUE, got '\(word)'")
            }
            let name = String(word[..<equals])
            let text = String(word[word.index(after: equals)...])
            let value = (try? JSONValue(parsing: text)) ?? .string(text)
            input.removeAll { $0.key == name }
            input.append(JSONMember(name, value))
        }
        members.removeAll { $0.key == "input" }
        members.append(JSONMember("input", .object(input)))
        return .object(members)
    }

    /// `input.schema` checks the input (its defaults filled in); the first issue names the field.
    static func checkInput(_ rendered: JSONValue, given: JSONValue?, file: String) throws {
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
        if let issue = try geminiSchema(schema, file: file).validate(input).first {
            throw CommandFailure(
                kind: .invalidInput, message: "prompt: \(file): input \(issue.path): \(issue.message)")
        }
    }

    /// A JSON Schema of the file as a ``GeminiSchema`` (the one conversion, `schema @FILE`'s).
    static func geminiSchema(_ value: JSONValue, file: String) throws -> GeminiSchema {
        do {
            return try GeminiSchemaDocument(value).schema
        } catch {
            throw CommandFailure(kind: .schemaError, message: "prompt: \(file): \(error)")
        }
    }

    /// A rendered content part: text (media is not sent yet).
    static func part(_ value: JSONValue, file: String) throws -> Part {
        guard let text = value["text"]?.stringValue else {
            throw CommandFailure(
                kind: .invalidInput, message: "prompt: \(file): only text parts can be sent so far")
        }
        return .text(text)
    }

    /// An array's elements; none for anything else.
    static func elements(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let items) = value ?? .null else { return [] }
        return items
    }

    /// A Dotprompt model name as a Gemini model ID: `googleai/` or `vertexai/` dropped.
    static func modelID(_ name: String) -> String {
        for prefix in ["googleai/", "vertexai/"] where name.hasPrefix(prefix) {
            return String(name.dropFirst(prefix.count))
        }
        return name
    }

    /// The frontmatter's `config` members Gemini takes per call.
    static func generation(_ config: JSONValue?) -> GenerationConfig {
        var generation = GenerationConfig()
        guard let config else { return generation }
        generation.temperature = config["temperature"]?.doubleValue
        generation.topP = config["topP"]?.doubleValue
        generation.maxOutputTokens = config["maxOutputTokens"]?.doubleValue.map { Int($0) }
        generation.topK = config["topK"]?.doubleValue.map { Int($0) }
        if config["stopSequences"] != nil {
            generation.stopSequences = elements(config["stopSequences"]).compactMap(\.stringValue)
        }
        return generation
    }
}
