import Foundation
import SophonCore
import SophonGemini

/// One turn of `ask`, `chat` or `tool-reply` over the Interactions API (`set api
/// interactions`, docs/interactions.md). The request comes from the one turn builder
/// (``GeminiCall/request(contents:tools:toolConfig:model:schema:overrides:context:)``),
/// translated by the library (``GeminiInteractionRequest/converting(_:model:)``); a chat
/// continues by `previous_interaction_id` and re-sends tools, system instruction and
/// generation config each turn (with `store off`, the whole history); tools run the library's
/// one loop; text streams when `stream on`.
enum InteractionTurn {
    /// Runs one `ask` or `chat` turn.
    /// - Returns: the reply, and the user and model contents of the turn for `history` (none
    ///   when the reply is function calls waiting for `tool-reply`).
    /// - Throws: ``CommandFailure``; ``AskCommands/DryRun`` for `--dry-run`.
    static func run(
        history: [Content], options: AskCommands.Options, isChat: Bool, context: CommandContext,
        services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        if let refusal = VertexSetup.refusal("interactions", session: context.session, services: services) {
            throw refusal
        }
        let dryRun = options.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(command: "ask", context: context, services: services)
        let (sessionSchema, attachments) = context.session.withGeminiState { ($0.schema, $0.attachments) }
        let schema = options.noSchema ? nil : (options.schema ?? sessionSchema)
        let earlier = history + (options.contents?.dropLast() ?? [])
        let userTurn = Content(role: "user", parts: attachments + options.promptParts)
        context.session.withGeminiState { $0.lastTurn = earlier + [userTurn] }
        let withTools =
            options.overrides.functions.isEmpty
            ? await AskTurn.hasTools(context: context, services: services) : true
        let (tools, toolConfig) = GeminiCall.sessionTools(
            servedToo: withTools, functions: options.overrides.functions, context: context, services: services
        )
        let model = GeminiModel(selection: options.model ?? context.session.geminiSettings.model)
        let built = try GeminiCall.request(
            contents: [userTurn], tools: tools, toolConfig: toolConfig, model: model, schema: schema,
            overrides: options.overrides, context: context)
        let (request, dropped) = GeminiInteractionRequest.converting(built, model: model)
        for setting in dropped {
            context.io.printError(ShellMessages.note(InteractionMessages.notSent(setting)))
        }
        let state = context.session.withInteractionState { $0 }
        var conversation =
            (isChat ? state.conversation : nil)
            ?? GeminiInteractionConversation(store: state.store, history: steps(of: isChat ? earlier : []))
        conversation.store = state.store
        let before = conversation
        do {
            guard case .content(let blocks) = request.input else { return try unreachable() }
            try conversation.appendUser(blocks)
        } catch let error as GeminiToolError {
            throw CommandFailure(kind: .toolCallsPending, message: "\(isChat ? "chat" : "ask"): \(error)")
        }
        let turn = Turn(
            request: request, model: model, schema: schema, isChat: isChat, commandModel: options.model,
            userTurn: userTurn, before: before)
        do {
            let sent = try await send(
                turn, conversation: conversation, client: client, context: context, services: services)
            // The attachments go with the next turn that succeeds (as ``AskTurn``).
            AskTurn.clearAttachments(context, unless: options.dryRun)
            return sent
        } catch let error as DryRunTransport.Stopped {
            guard let sent = dryRun?.request else { throw error }
            throw AskCommands.DryRun(sent)
        }
    }

    /// `tool-reply`'s answers to the pending calls of an interaction: sent as `function_result`
    /// steps, and the loop goes on.
    static func answer(
        _ pending: PendingToolCalls, conversation: GeminiInteractionConversation, context: CommandContext,
        services: GeminiServices
    ) async throws -> CallReply {
        if let refusal = VertexSetup.refusal("interactions", session: context.session, services: services) {
            throw refusal
        }
        var conversation = conversation
        do {
            try conversation.answer(pending.responses.map { $0 ?? .object([]) })
        } catch {
            throw CommandFailure(kind: .usage, message: "tool-reply: \(error)")
        }
        let client = try GeminiCall.client(command: "tool-reply", context: context, services: services)
        let (tools, toolConfig) = GeminiCall.sessionTools(
            servedToo: true, context: context, services: services)
        let model = GeminiModel(selection: pending.model ?? context.session.geminiSettings.model)
        let built = try GeminiCall.request(
            contents: [Content(role: "user", parts: [.text("")])], tools: tools, toolConfig: toolConfig,
            model: model,
            schema: pending.schema, context: context)
        let request = GeminiInteractionRequest.converting(built, model: model).request
        let turn = Turn(
            request: request, model: model, schema: pending.schema, isChat: pending.isChat,
            commandModel: pending.model, userTurn: nil, before: nil)
        return try await send(
            turn, conversation: conversation, client: client, context: context, services: services
        ).0
    }

    /// What one turn asks for.
    struct Turn {
        var request: GeminiInteractionRequest
        var model: GeminiModel
        var schema: GeminiSchema?
        var isChat: Bool
        var commandModel: String?
        /// The user's content, for `history`; `nil` for a `tool-reply`.
        var userTurn: Content?
        /// The conversation before this turn (kept when the turn fails).
        var before: GeminiInteractionConversation?
    }

    /// Sends the turn: through the tool loop when it has tools, streamed when `stream on` and
    /// no schema, else as one create; then the answer or the pending calls.
    private static func send(
        _ turn: Turn, conversation: GeminiInteractionConversation, client: GeminiAPIClient,
        context: CommandContext,
        services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        var conversation = conversation
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let settings = context.session.geminiSettings
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        var printed = false
        let interaction: GeminiInteraction
        var usage: UsageMetadata?
        var retries = 0
        // A tool exchange's rounds, each priced and counted as it comes (as ToolExchange's).
        var rounds: ExchangeRounds.Recorder?
        let start = conversation.history.count
        defer {
            if let rounds {
                ExchangeRounds.current?.record(
                    ExchangeRounds.answered(rounds.rounds, results: conversation.history.dropFirst(start)))
            }
        }
        do {
            if !turn.request.tools.isEmpty {
                let served = ServedTools(context: context, services: services)
                rounds = ExchangeRounds.Recorder()
                let run = try await client.interactions.runTools(
                    label: "ask", conversation: &conversation, request: turn.request,
                    server: served.server(context: context, services: services),
                    maxToolRounds: context.session.withToolState { $0.rounds }, retryPolicy: policy
                ) { event in
                    switch event {
                    case .sending: rounds?.sending(services)
                    case .received(_, let result, let answering):
                        _ = rounds?.received(
                            model: turn.model.id, requested: turn.model.id,
                            usage: result.interaction.usage?.metadata,
                            retries: result.retryCount, usedFallback: false, served: answering,
                            answer: answering
                                ? ExchangeRounds.answer(
                                    result.interaction.pendingCalls, redact: { services.redact($0) }) : nil,
                            interaction: result.interaction.id, context: context)
                    }
                }
                (interaction, usage, retries) = (run.interaction, run.usage, run.retryCount)
            } else if settings.stream, turn.schema == nil {
                let printsChunks = context.session.settings.output != .json
                var assembler = GeminiInteractionAssembler()
                var printer = StreamedTextPrinter(
                    printsChunks: printsChunks, context: context, services: services)
                do {
                    for try await event in client.interactions.stream(
                        conversation.applied(to: turn.request), label: "ask", retryPolicy: policy)
                    {
                        assembler.add(event)
                        if let delta = event.textDelta { printer.print(delta) }
                    }
                } catch {
                    printer.finish()
                    throw error
                }
                printer.finish()
                printed = printer.printedAny
                try Task.checkCancellation()
                interaction = assembler.interaction
                conversation.record(interaction)
                (usage, retries) = (interaction.usage?.metadata, services.retriesInFlight.value)
            } else {
                let result = try await client.interactions.create(
                    conversation.applied(to: turn.request), label: "ask", retryPolicy: policy)
                conversation.record(result.interaction)
                (interaction, usage, retries) = (
                    result.interaction, result.interaction.usage?.metadata, result.retryCount
                )
            }
        } catch let error as GeminiError {
            throw failure(error, conversation: conversation, turn: turn, context: context)
        } catch GeminiToolError.tooManyRounds(let rounds, _) {
            throw ToolExchange.roundsExceeded(rounds, pending: conversation.pendingCalls)
        }
        context.session.withInteractionState { $0.lastInteractionID = interaction.id }
        // A tool exchange was counted round by round: its envelope sums them.
        let envelope =
            (rounds.map {
                GeminiCall.envelope(
                    model: turn.model.id, usage: usage, retries: retries,
                    cost: CostText.total($0.rounds.map(\.cost))
                )
            }
                ?? GeminiCall.finish(
                    model: turn.model.id, requested: turn.model.id, usage: usage, retries: retries,
                    usedFallback: false, started: started, context: context))
            + [JSONMember("interaction", .string(interaction.id))]
        let pending = conversation.pendingCalls
        guard pending.isEmpty else {
            context.session.withToolState {
                $0.pending = PendingToolCalls(
                    contents: [], calls: pending, responses: pending.map { _ in nil }, isChat: turn.isChat,
                    conversationCount: 0, model: turn.commandModel, schema: turn.schema,
                    interactions: conversation)
            }
            let value = JSONValue.object([
                JSONMember(
                    "functionCalls", .array(pending.map { services.redact(ToolExchange.callValue($0)) }))
            ])
            return (CallReply(value: value, envelope: envelope), [])
        }
        context.session.withToolState { $0.pending = nil }
        if turn.isChat { context.session.withInteractionState { $0.conversation = conversation } }
        return try answer(
            interaction, turn: turn, envelope: envelope, printed: printed, context: context,
            services: services)
    }

    /// The finished interaction as the command's reply: the text (decoded with the schema when
    /// one is in force), its sources after it; its media saved (``ReplyMedia``).
    private static func answer(
        _ interaction: GeminiInteraction, turn: Turn, envelope: [JSONMember], printed: Bool,
        context: CommandContext,
        services: GeminiServices
    ) throws -> (CallReply, [Content]) {
        let text = interaction.outputText
        let sources = interaction.sources.map { GroundingSource(title: $0.title, uri: $0.url) }
        context.session.withToolState { $0.sources = sources }
        // Media in the reply is saved as generateContent's is (the same folder, names, note).
        let media = interaction.outputMedia
        let saved = try ReplyMedia.save(media, context: context, services: services)
        var extra = ReplyMedia.members(saved)
        extra += ToolExchange.sourcesMembers(sources)
        let modelTurn = Content(role: "model", parts: [.text(text)] + media)
        let turns = turn.userTurn.map { [$0, modelTurn] } ?? []
        if let schema = turn.schema {
            let response = GenerateContentResponse(candidates: [
                Candidate(content: Content(role: "model", parts: [.text(text)]), finishReason: .stop)
            ])
            let value: JSONValue
            do {
                let (decoded, coercions) = try GeminiAPIClient.structuredValue(of: response, schema: schema)
                for coercion in coercions { context.io.printError(ShellMessages.coerced(coercion)) }
                value = decoded
            } catch let error as GeminiError {
                throw GeminiCall.failure(error, context: context)
            }
            return (CallReply(value: services.redact(value), envelope: envelope + extra), turns)
        }
        // No text and no media is an empty answer whatever the status (as generateContent's
        // empty reply is): never an empty line and a success.
        guard !text.isEmpty || !media.isEmpty else {
            throw GeminiCall.failure(.emptyResponse, context: context)
        }
        let answer = services.redact(text)
        let display = sources.isEmpty ? answer : answer + "\n" + ToolExchange.sourcesText(sources)
        if printed, !sources.isEmpty { context.io.stdout.write(ToolExchange.sourcesText(sources) + "\n") }
        return (
            CallReply(
                value: .string(answer), display: display, alreadyPrinted: printed, envelope: envelope + extra),
            turns
        )
    }

    /// A failed turn as the command's failure: a continued interaction the server no longer
    /// has (404: expired or deleted; 403: deleted, or not this key's) says so, and the next turn
    /// sends the kept history; a stream cut past the retries says what arrived.
    private static func failure(
        _ error: GeminiError, conversation: GeminiInteractionConversation, turn: Turn, context: CommandContext
    ) -> CommandFailure {
        if case .http(let status, let code, let message, _) = error, status == 404 || status == 403,
            code != "model_not_found",
            let id = conversation.lastInteractionID,
            conversation.store
        {
            var kept = turn.before ?? conversation
            kept.forgetStoredInteraction()
            if turn.isChat { context.session.withInteractionState { $0.conversation = kept } }
            return CommandFailure(
                kind: .interactionNotFound,
                message: InteractionMessages.expired(
                    id, status: status, reason: message, steps: kept.history.count))
        }
        if case .streamEndedEarly(let partial) = error {
            return CommandFailure(
                kind: .streamEndedEarly, message: InteractionMessages.cut(error, partialText: partial))
        }
        return GeminiCall.failure(error, context: context)
    }

    /// Earlier contents (a resumed or generateContent conversation) as steps: user turns as
    /// `user_input`, model turns as `model_output` (their text and media).
    static func steps(of contents: [Content]) -> [GeminiInteractionStep] {
        contents.map { content in
            let blocks = GeminiInteractionRequest.content(of: content)
            guard content.role == "model" else { return .userInput(blocks) }
            return GeminiInteractionStep(
                json: .object([
                    JSONMember("type", .string("model_output")),
                    JSONMember("content", .array(blocks.map(\.json))),
                ]))
        }
    }

    /// The converted request's input is always content (the builder's last turn).
    private static func unreachable() throws -> (CallReply, [Content]) {
        throw CommandFailure(kind: .internalError, message: "interactions: the turn has no content")
    }
}
