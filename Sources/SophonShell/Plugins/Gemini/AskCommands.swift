import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Synchronization

/// `ask`, `chat`, `history`, `reset` and `tokens` (docs/commands.md).
enum AskCommands {
    /// The options `ask` and `chat` take before the prompt.
    struct Options {
        var model: String?
        var noSchema = false
        var prompt: String
        /// `--dry-run` (or `set dry-run on`): print the request instead of sending it.
        var dryRun = false
        /// Piped stdin in one-command mode, sent as its own part before the prompt; `nil` when
        /// stdin is a terminal, empty, or became the prompt.
        var input: String?
        /// A prompt file's turns (`prompt FILE`): sent instead of the prompt, the last as the
        /// user's turn.
        var contents: [Content]?
        /// A prompt file's output schema, in place of the session's.
        var schema: GeminiSchema?
        /// A prompt file's system and config.
        var overrides = TurnOverrides()

        /// The parts of the user's turn after the attachments: the piped text, then the prompt.
        var promptParts: [Part] {
            if let last = contents?.last { return last.parts ?? [] }
            return (input.map { [Part.text($0)] } ?? []) + [.text(prompt)]
        }
    }

    /// A dry run ended: the requests that would have been sent, in order.
    struct DryRun: Error {
        var requests: [GeminiHTTPRequest]

        /// Whether `--json` gives `{"requests": [...]}` even for one request (`compare`, whose
        /// dry run is a list however many models it names).
        var listed = false

        init(_ requests: GeminiHTTPRequest...) { self.requests = requests }
        init(requests: [GeminiHTTPRequest], listed: Bool = false) {
            self.requests = requests
            self.listed = listed
        }

        /// What the command prints: each request as ``DryRunTransport/rendered(_:)`` (a blank
        /// line between); under `--json` one request's ``DryRunTransport/data(_:)``, or
        /// `{"requests": [...]}` for several (docs/commands.md, "Dry run").
        var result: CommandResult {
            let text = requests.map(DryRunTransport.rendered).joined(separator: "\n")
            let data =
                requests.count == 1 && !listed
                ? DryRunTransport.data(requests[0])
                : .object([JSONMember("requests", .array(requests.map(DryRunTransport.data)))])
            return .report(text, data: data)
        }
    }

    /// The options of `ask` (`allowNoSchema`), `chat` and `tokens`, declared once.
    static func declared(allowNoSchema: Bool) -> [CommandOption] {
        [CommandOption(name: "--model", value: "ID", help: "the model for this turn", missing: "a model ID")]
            + (allowNoSchema
                ? [CommandOption(name: "--no-schema", help: "leave the session's schema out")] : [])
            + [CommandOption(name: "--dry-run", help: "print the request instead of sending it"), .json]
    }

    static func options(_ request: CommandRequest, allowNoSchema: Bool, context: CommandContext) throws
        -> Options
    {
        var words = request.arguments
        if words.first == request.name { words.removeFirst() }
        let declared = declared(allowNoSchema: allowNoSchema)
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(words, declared: declared)
        } catch {
            throw error.failure(command: request.name)
        }
        if let extra = parsed.operands.first {
            throw OptionError.unknown(extra, among: declared.map(\.name)).failure(command: request.name)
        }
        let model = parsed.value("--model")
        // Refused before anything is built, with the command's name (it was the library's
        // untyped-looking `“” is not a valid model ID.` after the request was made).
        if let model, !GeminiModel.isWellFormedID(GeminiModel(selection: model).id) {
            throw CommandFailure(
                kind: .invalidModelID,
                message: "\(request.name): --model: " + ShellMessages.invalidModelID(model)
            )
        }
        // A name outside the catalog is said, as `set model` says it (a typo such as
        // `gemini-2.5-prx` went out silently); `custom:ID` already says it is one.
        if let model, !model.hasPrefix("custom:"), let notice = ModelCommands.customModelNotice(model) {
            context.io.printError(notice)
        }
        let noSchema = parsed.has("--no-schema")
        let dryRun = context.session.geminiSettings.dryRun || parsed.has("--dry-run")
        let input = try pipedInput(context: context)
        if let prompt = request.rawArgument, !prompt.isEmpty {
            return Options(model: model, noSchema: noSchema, prompt: prompt, dryRun: dryRun, input: input)
        }
        guard let input else { throw context.usageFailure(request.name) }
        return Options(model: model, noSchema: noSchema, prompt: input, dryRun: dryRun)
    }

    /// In one-command mode, all of stdin when it is not a terminal and not blank
    /// (`echo text | sophon ask summarize`), as sent: nothing trimmed. Blank stdin (`echo |`)
    /// is none: it was sent as a prompt of its own, a paid call on a line break.
    /// - Throws: ``CommandFailure`` (`usage`) when stdin is not UTF-8 text or passes 256 MiB.
    static func pipedInput(context: CommandContext) throws -> String? {
        guard context.mode == .oneCommand, isatty(STDIN_FILENO) == 0 else { return nil }
        let data = try context.io.readAllInput()
        guard !data.isEmpty else { return nil }
        guard data.count <= ShellIO.maximumInputBytes else {
            throw CommandFailure(
                kind: .usage, message: "stdin: larger than \(ShellIO.maximumInputBytes / (1024 * 1024)) MiB")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(kind: .usage, message: "stdin: not valid UTF-8 text")
        }
        return text.allSatisfy(\.isWhitespace) ? nil : text
    }

    /// `ask [--model ID] [--no-schema] PROMPT`: one turn.
    static func ask(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: true, context: context)
        do {
            let (reply, _) = try await ExchangeLog.recording(
                "ask", options: options, history: [], context: context
            ) {
                try await AskTurn.run(history: [], options: options, context: context, services: services)
            }
            return .reply(reply)
        } catch let dryRun as DryRun {
            return dryRun.result
        }
    }

    /// `chat MESSAGE`: a turn in the session's conversation; the schema stays in force.
    static func chat(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let (request, resumed) = try ConversationResume.take(request, context: context)
        if resumed, request.rawArgument?.isEmpty ?? true { return .none }
        let options = try options(request, allowNoSchema: false, context: context)
        let history = context.session.withGeminiState { $0.conversation }
        do {
            let (reply, turns) = try await ExchangeLog.recording(
                "chat", options: options, history: history, context: context
            ) {
                try await AskTurn.run(
                    history: history, options: options, isChat: true, context: context, services: services)
            }
            context.session.withGeminiState { $0.conversation += turns }
            return .reply(reply)
        } catch let dryRun as DryRun {
            return dryRun.result
        }
    }

    /// `history`: the conversation, one turn per line.
    static func history(context: CommandContext) -> CommandResult {
        let conversation = context.session.withGeminiState { $0.conversation }
        let turns = conversation.map { content in
            let text = (content.parts ?? []).compactMap { part -> String? in
                if let call = part.functionCall {
                    return "[call \(call.name) \((call.args ?? .object([])).compactText)]"
                }
                if let response = part.functionResponse {
                    return "[response \(response.name) \((response.response ?? .object([])).compactText)]"
                }
                return part.text
            }.joined()
            return (role: content.role ?? "user", text: text)
        }
        let data = JSONValue.object([
            JSONMember(
                "turns",
                .array(
                    turns.map {
                        .object([JSONMember("role", .string($0.role)), JSONMember("text", .string($0.text))])
                    }))
        ])
        guard !turns.isEmpty else {
            return .report("(no conversation yet; start one with 'chat')", data: data)
        }
        return .report(turns.map { "\($0.role): \($0.text)" }.joined(separator: "\n"), data: data)
    }

    /// `reset`: clears the conversation, not the settings.
    static func reset(context: CommandContext) -> CommandResult {
        context.session.withGeminiState { $0.conversation = [] }
        context.session.withToolState { $0.pending = nil }
        context.session.withInteractionState { $0.conversation = nil }
        return .none
    }

    /// What `ask PROMPT` would send now, from the one turn builder (attachments, prompt, system
    /// instruction, safety and generation settings fitted to `model`, tools, the schema in
    /// force), for `tokens` to count. Attachments stay for the next ask.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take a setting.
    static func countedRequest(parts: [Part], model: GeminiModel, context: CommandContext) throws
        -> GenerateContentRequest
    {
        let (schema, attachments) = context.session.withGeminiState { ($0.schema, $0.attachments) }
        let (tools, toolConfig) = GeminiCall.sessionTools(servedToo: true, context: context)
        return try GeminiCall.request(
            contents: [Content(role: "user", parts: attachments + parts)], tools: tools,
            toolConfig: toolConfig,
            model: model, schema: schema, context: context)
    }

    /// `tokens TEXT`: the total token count of what `ask TEXT` would send, through countTokens
    /// over either API (`set api interactions` has no count endpoint: the same turn is counted,
    /// without the settings that API leaves out, each named in a note as `ask` does).
    static func tokens(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: false, context: context)
        let dryRun = options.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(command: "tokens", context: context, services: services)
        let settings = context.session.geminiSettings
        let model = GeminiModel(selection: options.model ?? settings.model)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        do {
            var counted = try countedRequest(parts: options.promptParts, model: model, context: context)
            if context.session.withInteractionState({ $0.api }) == .interactions {
                // The Interactions API has no count endpoint: countTokens counts the turn `ask`
                // would send over it, without the settings that API has no field for.
                let (kept, dropped) = GeminiInteractionRequest.leavingOutUnsupported(counted)
                for setting in dropped {
                    context.io.printError(ShellMessages.note(InteractionMessages.notSent(setting)))
                }
                counted = kept
            }
            let reply = try await client.countTokens(
                request: counted, model: model,
                retryPolicy: context.session.withGeminiState { $0.retryPolicy })
            // countTokens bills nothing, so the session's totals stay; `--json` still reports the
            // counted prompt as its usage.
            let total = reply.totalTokens ?? 0
            let envelope = GeminiCall.finish(
                model: services.retriesInFlight.fallbackModel ?? model.id, requested: model.id, usage: nil,
                retries: services.retriesInFlight.value, usedFallback: false, started: started,
                context: context
            ).map { member in
                guard member.key == "usage" else { return member }
                return JSONMember(
                    "usage",
                    GeminiCall.usageValue(UsageMetadata(promptTokenCount: total, totalTokenCount: total)))
            }
            return .reply(CallReply(value: .integer(total), envelope: envelope))
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        } catch let error as DryRunTransport.Stopped {
            guard let sent = dryRun?.request else { throw error }
            return AskCommands.DryRun(sent).result
        }
    }
}

/// The transport of `ask --dry-run` and `set dry-run on` (docs/commands.md, "Dry run"): the
/// client builds the request exactly as for a real call, and this transport keeps it instead of
/// sending it, then stops the call with ``Stopped``. Nothing reaches the network.
final class DryRunTransport: GeminiTransport {
    /// Ends the call once the request is kept; not a ``GeminiError``, so the client neither
    /// retries nor classifies it.
    struct Stopped: Error {}

    private let captured = Mutex<GeminiHTTPRequest?>(nil)

    func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        captured.withLock { $0 = $0 ?? request }
        throw Stopped()
    }

    /// The request the client would have sent, once it tried.
    var request: GeminiHTTPRequest? { captured.withLock { $0 } }

    /// What a dry run prints on stdout: `METHOD PATH` (the query kept: `?alt=sse`), then the body
    /// as pretty JSON. Headers are left out, so the key is never shown.
    static func rendered(_ request: GeminiHTTPRequest) -> String {
        var text = "\(request.method) \(path(of: request))"
        if let body = request.body {
            let bodyText = String(decoding: body, as: UTF8.self)
            text += "\n" + ((try? JSONValue(parsing: bodyText))?.prettyText ?? bodyText)
        }
        return text
    }

    /// The same request as `--json` data: `{"method", "path", "body"}`, the body as JSON
    /// (a string when it is not JSON; no member when there is none). No headers, so no key.
    static func data(_ request: GeminiHTTPRequest) -> JSONValue {
        var members = [
            JSONMember("method", .string(request.method)), JSONMember("path", .string(path(of: request))),
        ]
        if let body = request.body {
            let bodyText = String(decoding: body, as: UTF8.self)
            members.append(JSONMember("body", (try? JSONValue(parsing: bodyText)) ?? .string(bodyText)))
        }
        return .object(members)
    }

    /// The request's path with its query (`?alt=sse`), as sent.
    private static func path(of request: GeminiHTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? request.url.path
        if let query = components?.percentEncodedQuery, !query.isEmpty { path += "?" + query }
        return path
    }
}

/// `chat --continue` and `sophon --continue` (docs/logs.md): the newest logged conversation
/// becomes the session's, turn by turn as sent and received (thought signatures included), and
/// the next `chat` turns are logged under the same conversation ID.
enum ConversationResume {
    /// What `--continue` says on stderr when there is nothing to continue.
    static let nothingLogged = "no logged conversation to continue; starting a new one"

    /// Loads the newest logged conversation into `session`.
    /// - Returns: the number of turns loaded (0 when none was logged: a note says so).
    /// - Throws: ``CommandFailure`` (`fileError`) when the log cannot be read.
    @discardableResult
    static func resume(session: ShellSession, registry: PluginRegistry, io: ShellIO) throws -> Int {
        guard let plugin = registry.plugins.lazy.compactMap({ $0 as? LogPlugin }).first else { return 0 }
        let loaded: (turns: [Content], id: String?, interaction: String?)
        do {
            loaded = try plugin.withStore(io: io) { try ExchangeLog.lastConversation($0) }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(kind: .fileError, message: "--continue: \(plugin.path ?? ""): \(error)")
        }
        guard let id = loaded.id, !loaded.turns.isEmpty else {
            io.printError(ShellMessages.note(nothingLogged))
            return 0
        }
        session.withGeminiState { $0.conversation = loaded.turns }
        // Over the Interactions API the next turn continues the logged interaction by its id;
        // the turns are kept too, for a server that no longer has it.
        session.withInteractionState { state in
            state.conversation = loaded.interaction.map {
                GeminiInteractionConversation(
                    store: state.store, history: InteractionTurn.steps(of: loaded.turns),
                    lastInteractionID: $0)
            }
        }
        session.withLogState { $0.conversationID = id }
        return loaded.turns.count
    }

    /// `sophon --continue`, before anything runs.
    /// - Returns: `nil` to go on, else the exit status after printing the error.
    static func atStart(_ runtime: ShellRuntime) -> Int32? {
        do {
            try resume(session: runtime.session, registry: runtime.registry, io: runtime.io)
            return nil
        } catch let failure as CommandFailure {
            runtime.io.printError("error: \(failure.message)")
            return ShellExitStatus.failure
        } catch {
            runtime.io.printError("error: \(error)")
            return ShellExitStatus.failure
        }
    }

    /// `chat --continue`, declared with `chat`'s options.
    static let option = CommandOption(name: "--continue", help: "resume the newest logged conversation first")

    /// `chat --continue [MESSAGE]`: removes `--continue` from the request's options and resumes.
    /// - Returns: the request without it, and whether it was there.
    static func take(_ request: CommandRequest, context: CommandContext) throws -> (CommandRequest, Bool) {
        guard let index = request.arguments.firstIndex(of: "--continue") else { return (request, false) }
        var request = request
        request.arguments.remove(at: index)
        if request.arguments.contains(option.name) {
            throw OptionError.repeated(option.name).failure(command: request.name)
        }
        try resume(session: context.session, registry: context.registry, io: context.io)
        return (request, true)
    }
}
