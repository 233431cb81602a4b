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
        try checkNotAMisspeltSubcommand(file, context: context)
        let given = try PromptRenderCommand.data(parsed.value("--data"), command: "prompt", context: context)
        let data = try withAssignments(Array(parsed.operands.dropFirst()), data: given)
        let template = try CommandFailure.prefixed("prompt") {
            try PromptTemplate.load(context.resolve(file), shownAs: file)
        }
        let named = parsed.operands.dropFirst().map { word in
            String(word.prefix { $0 != "=" })
        }
        let turn = try CommandFailure.prefixed("prompt") { try template.turn(data, named: named) }
        for note in turn.notes {
            context.io.printError(ShellMessages.note("\(template.file): output \(note)"))
        }
        var options = AskCommands.Options(
            model: template.model, prompt: "",
            dryRun: context.session.geminiSettings.dryRun || parsed.has("--dry-run"))
        options.contents = turn.contents
        options.schema = turn.schema
        options.overrides = TurnOverrides(
            system: turn.system, generation: template.generation,
            functions: try CommandFailure.prefixed("prompt") { try template.functions() })
        do {
            let (reply, _) = try await ExchangeLog.recording(
                "prompt", options: options, history: [], context: context
            ) {
                try await AskTurn.run(history: [], options: options, context: context, services: services)
            }
            return .reply(reply)
        } catch let dryRun as AskCommands.DryRun {
            return dryRun.result
        }
    }

    /// A first word that names no file but is near a subcommand of `prompt` (`prompt rendr
    /// FILE`, `prompt sav FILE`) is the usage error with "did you mean", as for the commands
    /// whose first word is always a subcommand (``CommandOutline/strictSubcommands(_:usage:)``);
    /// an existing file of that name is a prompt file.
    static func checkNotAMisspeltSubcommand(_ word: String, context: CommandContext) throws {
        let usage = context.registry.command(named: "prompt")?.usage ?? ""
        let subcommands = CommandOutline.subcommands("prompt", usage: usage)
        guard !subcommands.contains(word), !FileManager.default.fileExists(atPath: context.resolve(word)),
            let close = Suggestions.closest(to: word, in: subcommands).first
        else { return }
        throw context.usageFailure("prompt", hint: "did you mean '\(close)'?")
    }

    /// `NAME=VALUE` words set members of the data's `input` (VALUE read as JSON when it is JSON,
    /// else as text), over `--data`'s; a NAME given twice is a usage error, as an option is.
    static func withAssignments(_ words: [String], data: JSONValue) throws -> JSONValue {
        guard !words.isEmpty else { return data }
        guard case .object(var members) = data else {
            throw CommandFailure(kind: .invalidInput, message: "prompt: --data must be a JSON object")
        }
        var input: [JSONMember] = []
        if case .object(let given) = data["input"] ?? .null { input = given }
        var assigned: Set<String> = []
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw CommandFailure(kind: .usage, message: "prompt: expected NAME=VALUE, got '\(word)'")
            }
            let name = String(word[..<equals])
            guard !assigned.contains(name) else {
                throw CommandFailure(kind: .usage, message: "prompt: '\(name)' is given twice")
            }
            assigned.insert(name)
            let text = String(word[word.index(after: equals)...])
            let value = (try? JSONValue(parsing: text)) ?? .string(text)
            input.removeAll { $0.key == name }
            input.append(JSONMember(name, value))
        }
        members.removeAll { $0.key == "input" }
        members.append(JSONMember("input", .object(input)))
        return .object(members)
    }
}
