import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// The Gemini commands (docs/commands.md): models, keys, schemas, asking and chatting, media,
/// the retry policy and token counts. The run's services exist once ``start(_:io:)`` ran.
final class GeminiPlugin: ShellPlugin {
    let name = "gemini"
    /// The run's services and the `--model` of the command line, set by ``start(_:io:)``.
    private let run = Mutex<(services: GeminiServices?, model: String?)>((nil, nil))

    /// The Gemini client side of the run; `nil` before ``start(_:io:)``.
    var services: GeminiServices? { run.withLock { $0.services } }

    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {
        if let model = options.model, !GeminiModel.isWellFormedID(GeminiModel(selection: model).id) {
            throw PluginStartError(message: "--model: " + ShellMessages.invalidModelID(model))
        }
        let services: GeminiServices
        do {
            services = try GeminiServices(
                options: .init(
                    verbose: options.verbose, recordTape: options.recordTape, replayTape: options.replayTape),
                io: io)
        } catch {
            throw PluginStartError(message: error.message)
        }
        run.withLock { $0 = (services, options.model) }
        if let problem = ImplicitFile.problem(services.paths.settingsFile.path, role: "settings file") {
            // The saved model is read without being asked: a FIFO must not block (docs/files.md).
            io.printError(ShellMessages.warning(problem + "; not reading it"))
        } else if let problem = Self.savedModel(services).problem {
            io.printError(ShellMessages.warning(problem))
        }
        if let model = options.model, let notice = ModelCommands.customModelNotice(model) {
            io.printError(notice)
        }
    }

    /// The language of Gemini errors from the environment (as in the library; `set language`
    /// wins), the saved model (`set model ID --save`), then `--model`.
    func configure(_ session: ShellSession) {
        let language = GeminiLocalization.language(fromEnvironment: ProcessInfo.processInfo.environment)
        session.withState { $0.settings.language = language }
        let (services, model) = run.withLock { ($0.services, $0.model) }
        let saved = services.flatMap { Self.savedModel($0).id }
        session.withGeminiState { state in
            if let saved { state.settings.model = GeminiModel(selection: saved).id }
            if let model { state.settings.model = GeminiModel(selection: model).id }
        }
    }

    /// The model saved in `settings.json` (`set model ID --save`), or why it is not used: a
    /// `model` that is no model ID (`"a b"`, edited by hand) made every call fail with the
    /// library's `“a b” is not a valid model ID.`, naming no file.
    static func savedModel(_ services: GeminiServices) -> (id: String?, problem: String?) {
        let file = services.paths.settingsFile
        guard let saved = JSONFileGeminiModelStore(fileURL: file).loadSelection() else { return (nil, nil) }
        guard GeminiModel.isWellFormedID(GeminiModel(selection: saved).id) else {
            return (nil, "\(file.path): model " + ShellMessages.invalidModelID(saved) + "; not using it")
        }
        return (saved, nil)
    }

    /// `set model PRESET | ID | custom:ID [--save]`; `set budget AMOUNT|off` (docs/cost.md).
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        if name == "budget" { return try Self.setBudget(words, context: context) }
        if let result = try InteractionSettings.set(name, words, context: context) { return result }
        if let result = try DeploymentSettings.set(name, words, context: context, services: services) {
            return result
        }
        if name == "model" { return try ModelCommands.set(words, context: context, services: services) }
        guard GeminiSettings.names.contains(name) else { return nil }
        try context.session.withGeminiState { try $0.settings.set(name, words: words) }
        return CommandResult.none
    }

    /// The largest budget: a million US dollars, far past any one session's spending and far
    /// below 2^53 cents, where a Double would no longer hold every cent (`show budget` would
    /// print another amount than the one set).
    static let maximumBudget = 1_000_000.0

    /// `set budget AMOUNT` (US dollars, a plain number in 0...``maximumBudget``) or
    /// `set budget off`.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) for anything else.
    static func setBudget(_ words: [String], context: CommandContext) throws -> CommandResult {
        guard words.count == 1, let word = words.first else {
            throw CommandFailure(
                kind: .invalidSetting, message: "set budget: expected AMOUNT (US dollars) or off")
        }
        if word == "off" {
            context.session.withGeminiState { $0.budget = nil }
            return .none
        }
        guard let amount = Double(word), amount.isFinite, (0...maximumBudget).contains(amount),
            !word.hasPrefix("+"), word.allSatisfy({ $0.isNumber || $0 == "." })
        else {
            throw CommandFailure.invalidSetting(
                "budget", expected: "a plain number of US dollars in 0...\(Int(maximumBudget)) (2.50) or off",
                got: word)
        }
        context.session.withGeminiState { $0.budget = amount }
        return .none
    }

    /// `show usage`: the calls made and their token totals, then each model's calls, tokens
    /// and cost, and the total cost (docs/cost.md).
    func show(_ name: String, context: CommandContext) -> CommandResult? {
        if name == "budget" {
            // A setting shows as text (`show` lists it with the others).
            let (budget, spending) = context.session.withGeminiState { ($0.budget, $0.spending) }
            return .text(budget.map { CostText.budget($0, spending: spending) } ?? "off")
        }
        if let value = context.session.geminiSettings.value(of: name) { return .text(value) }
        if let result = InteractionSettings.show(name, context: context) { return result }
        if let result = DeploymentSettings.show(name, context: context, services: services) { return result }
        guard name == "usage" else { return nil }
        let (usage, calls, spending) = context.session.withGeminiState { ($0.usage, $0.calls, $0.spending) }
        return .report(
            UsageReport.text(usage: usage, calls: calls, spending: spending),
            data: UsageReport.data(usage: usage, calls: calls, spending: spending))
    }

    /// `expect valid`: `$last` against the session's schema.
    func expectValid(context: CommandContext) -> ExpectOutcome? {
        let schema = context.session.withGeminiState { $0.schema }
        guard let schema else { return .failed(message: "no schema is set; set one with 'schema SPEC'") }
        guard let last = context.session.variable("last") else {
            return .failed(message: "no result to validate yet ($last is not set)")
        }
        let violations = schema.validate(last)
        guard let first = violations.first else { return .passed }
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        return .failed(message: "$last does not match the schema: \(first)\(more)")
    }

    /// Preset names and IDs, for `set model` and `--model`.
    static let modelNames: [String] = GeminiModel.allPresets.map(\.id).sorted()

    /// `--model ID`: the model names.
    func optionValues(_ option: String) -> [String]? { option == "--model" ? Self.modelNames : nil }

    /// The plugin's rows of the settings table: ``GeminiSettings`` (`set model` offers the
    /// model names), `budget`, the Interactions API's and the deployment's.
    var settings: [SettingDefinition] {
        GeminiSettings.definitions.map { definition in
            var definition = definition
            if definition.name == "model" { definition.values = Self.modelNames }
            return definition
        } + [SettingDefinition(name: "budget", values: ["off"])] + InteractionSettings.definitions
            + DeploymentSettings.definitions
    }

    /// `show usage`.
    var reportNames: [String] { ["usage", "interaction"] }

    /// The model, and whether an API key is set.
    func bannerNotes(_ session: ShellSession) -> [String] {
        let model = "model \(session.geminiSettings.model)"
        do {
            let key = try services?.apiKey() != nil
            return [model, key ? "API key set" : "no API key (key set, or GEMINI_API_KEY)"]
        } catch {
            // A key file that exists but cannot be used says why (docs/files.md, "API keys").
            return [model, "no usable API key: \((error as? CommandFailure)?.message ?? "\(error)")"]
        }
    }

    /// A command body that needs the Gemini services (the client, transcript and retry path),
    /// for this plugin's commands and those of the plugins on top of it (bulk, prompt,
    /// embeddings, tools); an internal error when they were not set up.
    func needingServices(
        _ run:
            @escaping @Sendable (CommandRequest, CommandContext, GeminiServices) async throws -> CommandResult
    ) -> @Sendable (CommandRequest, CommandContext) async throws -> CommandResult {
        { [self] request, context in
            guard let services else {
                throw CommandFailure(
                    kind: .internalError, message: "\(request.name): the Gemini services are not set up")
            }
            return try await run(request, context, services)
        }
    }

    var commands: [PluginCommand] {
        let prompt = RawArgumentSpec(valueOptions: ["--model"])
        return [
            PluginCommand(
                name: "ask", usage: "ask [--model ID] [--no-schema] [--dry-run] [--json] PROMPT",
                summary: "one turn: structured JSON with a schema, else text (streamed)",
                options: AskCommands.declared(allowNoSchema: true), argumentStyle: .raw(prompt),
                takesJSONFlag: true,
                run: needingServices { try await AskCommands.ask($0, context: $1, services: $2) }),
            PluginCommand(
                name: "chat", usage: "chat [--model ID] [--dry-run] [--json] [--continue] MESSAGE",
                summary: "a turn in the conversation (the schema stays in force)",
                options: AskCommands.declared(allowNoSchema: false) + [ConversationResume.option],
                argumentStyle: .raw(prompt), takesJSONFlag: true,
                run: needingServices { try await AskCommands.chat($0, context: $1, services: $2) }),
            PluginCommand(
                name: "history", usage: "history", summary: "print the conversation",
                run: { _, context in AskCommands.history(context: context) }),
            PluginCommand(
                name: "reset", usage: "reset", summary: "clear the conversation (settings stay)",
                run: { _, context in AskCommands.reset(context: context) }),
            PluginCommand(
                name: "schema",
                usage:
                    "schema SPEC | @FILE | show [gemini|json-schema|--picoschema|--swift [NAME]] | picoschema TEXT | clear",
                summary: "set the answer schema: { title: string, year: integer, tags: [string] }",
                options: SchemaCommands.declared,
                argumentStyle: .raw(
                    RawArgumentSpec(wordKeywords: ["show", "clear", "picoschema"], wordPrefixes: ["@"])),
                completion: SchemaCommands.completion,
                run: { request, context in try SchemaCommands.schema(request, context: context) }),
            PluginCommand(
                name: "validate", usage: "validate [JSON | @FILE]",
                summary: "check a value (default $last) against the schema",
                argumentStyle: .raw(RawArgumentSpec(wordPrefixes: ["@"])),
                run: { request, context in try SchemaCommands.validate(request, context: context) }),
            PluginCommand(
                name: "attach", usage: "attach [--mime TYPE] FILE|URL... | attach clear",
                summary:
                    "media for the next ask or chat (images, PDF, text, audio, video; large files uploaded)",
                options: AttachCommand.declared, completion: .files,
                run: needingServices { try await AttachCommand.run($0, context: $1, services: $2) }),
            PluginCommand(
                name: "files", usage: "files [--json] | files show NAME | files delete NAME|--all",
                summary: "the files uploaded with the key (Files API): list, show, delete",
                options: FilesCommand.declared + [CommandOption.json], takesJSONFlag: true,
                run: needingServices { try await FilesCommand.run($0, context: $1, services: $2) }),
            PluginCommand(
                name: "retry-policy", usage: "retry-policy [default | minimal | KEY=VALUE...]",
                summary:
                    "show or change retries: attempts base cap jitter retry-after max-wait fallback downscale",
                completion: RetryPolicyCommand.completion,
                run: { request, context in try RetryPolicyCommand.run(request, context: context) }),
            PluginCommand(
                name: "tokens", usage: "tokens [--model ID] [--dry-run] [--json] TEXT",
                summary: "count the tokens of TEXT",
                options: AskCommands.declared(allowNoSchema: false), argumentStyle: .raw(prompt),
                takesJSONFlag: true,
                run: needingServices { try await AskCommands.tokens($0, context: $1, services: $2) }),
            PluginCommand(
                name: "models", usage: "models [--live] [--json]",
                summary: "the model catalog; --live: what the key can reach",
                options: ModelCommands.declared + [CommandOption.json], takesJSONFlag: true,
                run: needingServices { try await ModelCommands.models($0, context: $1, services: $2) }),
        ] + ResearchCommands.commands(needingServices) + [
            PluginCommand(
                name: "cache",
                usage:
                    "cache create NAME (TEXT | @FILE...) [--system TEXT] [--ttl 1h] | list | show NAME | "
                    + "extend NAME --ttl 2h | delete NAME [--dry-run] [--json]",
                summary:
                    "context caches: a long context sent once, reused by 'set cache NAME' at a lower price",
                options: CacheCommand.declared + [CommandOption.json], takesJSONFlag: true,
                run: needingServices { try await CacheCommand.run($0, context: $1, services: $2) }),
            PluginCommand(
                name: "key", usage: "key set | show | delete | path",
                summary: "store, show (masked), delete the API key, or print where it is stored",
                run: needingServices { try KeyCommands.run($0, context: $1, services: $2) }),
        ]
    }
}

/// `key set | show | delete | path` (docs/language.md, "The REPL"): the key never appears in
/// history, saved scripts, tapes or logs, and `key set VALUE` is refused.
enum KeyCommands {
    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) throws
        -> CommandResult
    {
        let keychain = services.keychain
        switch request.arguments {
        case ["set"]:
            guard let secret = context.runtime.readSecret("API key: "), !secret.isEmpty else {
                // Ctrl-C at the prompt cancelled the command: report an interruption.
                if Task.isCancelled { throw CancellationError() }
                throw CommandFailure(kind: .usage, message: "key set: no key was entered")
            }
            if let bad = APIKeyCharacters.firstBadCharacter(in: secret) {
                throw CommandFailure(
                    kind: .invalidAPIKey, message: "key set: " + bad.message(subject: "the key"))
            }
            do {
                let source = try keychain.save(secret)
                if context.mode == .interactive { context.io.printError("saved the key to \(source)") }
                if let active = try? services.apiKey(), case .environment(let variable) = active.source {
                    context.io.printError(
                        ShellMessages.note("\(variable) is set and takes precedence over the saved key"))
                }
            } catch {
                throw CommandFailure(kind: .keyStoreError, message: "key set: \(error)")
            }
            return .none
        case let words where words.first == "set":
            throw CommandFailure(
                kind: .usage,
                message:
                    "takes no value (it would land in history); run 'key set' and paste the key at the prompt, or pipe it: sophon key set < key.txt"
            )
        case ["show"]:
            guard let lookup = try services.apiKey() else {
                return .text("no key set (set GEMINI_API_KEY, or run 'key set')")
            }
            return .text("\(SecretMask.mask(lookup.secret)) (from \(lookup.source))")
        case ["delete"]:
            do {
                let deleted = try keychain.delete()
                if !deleted { context.io.printError(ShellMessages.note("no key was stored")) }
            } catch {
                throw CommandFailure(kind: .keyStoreError, message: "key delete: \(error)")
            }
            return .none
        case ["path"]:
            return .text(services.paths.keysFile.path)
        default:
            // A word near a subcommand got its "did you mean" from the shell before this ran.
            throw context.usageFailure("key")
        }
    }
}
