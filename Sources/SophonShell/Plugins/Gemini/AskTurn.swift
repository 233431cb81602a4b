import Foundation
import SophonCore
import SophonGemini

/// One turn of `ask` or `chat` (docs/commands.md): the user's turn (attachments, piped text,
/// prompt) through the one turn builder (``GeminiCall/request(contents:tools:toolConfig:model:schema:context:)``),
/// sent as a tool exchange when tools are on, else structured when a schema is in force, else
/// as text (streamed when `stream on`). The command files parse and print; this sends.
enum AskTurn {
    /// Runs one turn.
    /// - Returns: the reply, and the user and model contents of this turn (none when the reply
    ///   is function calls: they wait for `tool-reply`).
    /// - Throws: ``CommandFailure``; ``AskCommands/DryRun`` for `--dry-run` (the request that
    ///   would have been sent).
    static func run(
        history: [Content], options: AskCommands.Options, isChat: Bool = false, context: CommandContext,
        services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        if let failure = context.session.withToolState({ $0.pendingFailure(command: isChat ? "chat" : "ask") }
        ) {
            throw failure
        }
        let functions = context.session.withToolState { $0.declarations }
        // The turn, as it goes (or would go, under a dry run), for `prompt save`.
        context.session.withGeminiState { state in
            state.lastTurnSettings = LastTurnSettings(
                model: options.model ?? state.settings.model, settings: state.settings,
                schema: options.noSchema ? nil : options.schema ?? state.schema, functions: functions,
                overrides: options.overrides)
        }
        if context.session.withInteractionState({ $0.api }) == .interactions {
            return try await InteractionTurn.run(
                history: history, options: options, isChat: isChat, context: context, services: services)
        }
        let dryRun = options.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(command: "ask", context: context, services: services)
        let (sessionSchema, attachments) = context.session.withGeminiState { ($0.schema, $0.attachments) }
        let schema = options.schema ?? sessionSchema
        let history = history + (options.contents?.dropLast() ?? [])
        let userTurn = Content(role: "user", parts: attachments + options.promptParts)
        context.session.withGeminiState { $0.lastTurn = history + [userTurn] }
        do {
            let toolTurn =
                options.overrides.functions.isEmpty
                ? await hasTools(context: context, services: services) : true
            if toolTurn {
                let reply = try await ToolExchange.send(
                    contents: history + [userTurn], isChat: isChat, conversationCount: history.count,
                    model: options.model, context: context, services: services,
                    schema: options.noSchema ? nil : schema, overrides: options.overrides,
                    client: dryRun == nil ? nil : client)
                clearAttachments(context, unless: options.dryRun)
                return (reply, [])
            }
            let turn = try await single(
                history: history, userTurn: userTurn, options: options,
                schema: options.noSchema ? nil : schema,
                isChat: isChat, client: client, context: context, services: services)
            clearAttachments(context, unless: options.dryRun)
            return turn
        } catch let error as DryRunTransport.Stopped {
            // `--dry-run`: the first request, as it would go; no key needed.
            guard let sent = dryRun?.request else { throw error }
            throw AskCommands.DryRun(sent)
        }
    }

    /// Whether the turn goes as a tool exchange: functions declared, built-ins on, or
    /// functions served by plugins or MCP servers (started now if need be). Under `tool-mode
    /// none` no function is offered: only the built-ins count, nothing starts, and a turn
    /// without them streams as without tools.
    static func hasTools(context: CommandContext, services: GeminiServices) async -> Bool {
        let state = context.session.withToolState { $0 }
        if state.hasTools || !state.offersFunctions { return state.hasTools }
        await ServedTools.startServers(context: context, services: services)
        if !ServedTools(context: context, services: services).declarations.isEmpty { return true }
        // A replay's MCP tools: those the tape's last request declared.
        return !MCPServedTools.offered(context: context, services: services).isEmpty
    }

    /// The attachments go with one turn only: the next one that succeeds. A dry run keeps them,
    /// and so does a failed turn (a 400, a network error), so `ask` again sends them again.
    static func clearAttachments(_ context: CommandContext, unless dryRun: Bool = false) {
        guard !dryRun else { return }
        context.session.withGeminiState {
            $0.attachments = []; $0.attachmentNames = []
        }
    }

    /// A turn without tools: one request, structured with `schema`, streamed, or as text.
    private static func single(
        history: [Content], userTurn: Content, options: AskCommands.Options, schema: GeminiSchema?,
        isChat: Bool, client: GeminiAPIClient, context: CommandContext, services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        let settings = context.session.geminiSettings
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let (tools, toolConfig) = GeminiCall.sessionTools(servedToo: false, context: context)
        let requested = options.model.map { GeminiModel(selection: $0).id } ?? settings.model
        let model = GeminiModel(selection: options.model ?? settings.model)
        let request = try GeminiCall.request(
            contents: history + [userTurn], tools: tools, toolConfig: toolConfig, model: model,
            overrides: options.overrides, context: context)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        do {
            if schema != nil || request.asksForJSON {
                // A schema, or JSON mode (a prompt file's `output.format: json`): read whole.
                let result = try await client.generateJSON(
                    label: "ask", request: request, schema: schema, model: model, retryPolicy: policy)
                for coercion in result.coercions {
                    context.io.printError(ShellMessages.coerced("\(coercion)"))
                }
                let envelope = try finished(
                    result, requested: requested, started: started, context: context, services: services)
                let modelTurn = Self.modelTurn(
                    result.response.candidates?.first?.content, text: result.response.text)
                return (
                    CallReply(value: services.redact(result.value), envelope: envelope),
                    [userTurn, modelTurn]
                )
            }
            if settings.stream {
                // `--json` changes what is printed, never the request: the answer still streams
                // and prints once, as JSON, at the end (docs/tapes.md).
                return try await streamed(
                    request: request, model: model, policy: policy, userTurn: userTurn, started: started,
                    printsChunks: context.session.settings.output != .json, client: client, context: context,
                    services: services, callsGo: (isChat: isChat, model: options.model))
            }
            return try await text(
                request: request, model: model, requested: requested, userTurn: userTurn, history: history,
                isChat: isChat, started: started, client: client, options: options, context: context,
                services: services)
        } catch let error as GeminiError {
            throw GeminiCall.failure(
                error, requested: requested, fallback: services.retriesInFlight.fallbackModel,
                context: context)
        }
    }

    /// A text answer, whole; function calls to a request that declared no tools are the result.
    private static func text(
        request: GenerateContentRequest, model: GeminiModel, requested: String, userTurn: Content,
        history: [Content], isChat: Bool, started: ContinuousClock.Instant, client: GeminiAPIClient,
        options: AskCommands.Options, context: CommandContext, services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let result = try await client.generateText(
            label: "ask", request: request, model: model, retryPolicy: policy)
        let envelope = try finished(
            result, requested: requested, started: started, context: context, services: services)
        return try answer(
            result.response, text: result.value, userTurn: userTurn, history: history, envelope: envelope,
            streamed: (printed: false, codePrinted: false), isChat: isChat, model: options.model,
            context: context, services: services)
    }

    /// The one reading of a whole answer without tools, streamed or not: function calls to a
    /// request that declared no tools are the result (never ""); otherwise the text, its code
    /// steps and sources, and the user and model turns.
    /// - Parameters:
    ///   - text: the answer text (thought parts excluded).
    ///   - streamed: the text and code steps were printed as they arrived (`stream on`); the
    ///     sources, which come with the last chunk, print now.
    private static func answer(
        _ response: GenerateContentResponse, text: String, userTurn: Content, history: [Content],
        envelope: [JSONMember], streamed: (printed: Bool, codePrinted: Bool), isChat: Bool, model: String?,
        context: CommandContext, services: GeminiServices
    ) throws -> (CallReply, [Content]) {
        if ToolExchange.hasCalls(response) {
            let reply = try ToolExchange.handle(
                response, contents: history + [userTurn], isChat: isChat, conversationCount: history.count,
                model: model, envelope: envelope, context: context, services: services)
            return (reply, [])
        }
        let candidate = response.candidates?.first
        let parts = candidate?.content?.parts ?? []
        ToolExchange.reportUnknownParts(parts, context: context)
        // Code execution and grounding print as with tools on (docs/commands.md, "Built-in
        // tools"), whoever asked.
        let code = ToolExchange.codeSteps(parts)
        if !streamed.codePrinted {
            for step in code { context.io.printError(step.text) }
        }
        let sources = ToolExchange.groundingSources(candidate?.groundingMetadata)
        context.session.withToolState { $0.sources = sources }
        // A streamed answer is on stdout already: its sources follow it.
        if streamed.printed, !sources.isEmpty {
            context.io.stdout.write(ToolExchange.sourcesText(sources) + "\n")
        }
        let answer = services.redact(text)
        let reply = CallReply(
            value: .string(answer),
            display: sources.isEmpty ? answer : answer + "\n" + ToolExchange.sourcesText(sources),
            alreadyPrinted: streamed.printed, envelope: envelope + Self.codeAndSources(code, sources))
        return (reply, [userTurn, modelTurn(candidate?.content, text: text, services: services)])
    }

    /// After a whole answer: its media saved, then ``GeminiCall/finish(model:requested:usage:retries:usedFallback:started:context:)``;
    /// the `--json` members with `media`.
    private static func finished<Value>(
        _ result: GeminiResult<Value>, requested: String, started: ContinuousClock.Instant,
        context: CommandContext, services: GeminiServices
    ) throws -> [JSONMember] {
        let saved = try ReplyMedia.save(
            result.response.candidates?.first?.content?.parts ?? [], context: context, services: services)
        return GeminiCall.finish(
            model: result.modelID, requested: requested, usage: result.usage, retries: result.retryCount,
            usedFallback: result.usedFallback, started: started, context: context) + ReplyMedia.members(saved)
    }

    /// A text answer printed chunk by chunk as it arrives (when `printsChunks`; else printed
    /// whole by the result printer, as `--json` does). An error after some text keeps what
    /// was printed, ends the line, and fails the command.
    private static func streamed(
        request: GenerateContentRequest, model: GeminiModel, policy: GeminiRetryPolicy, userTurn: Content,
        started: ContinuousClock.Instant, printsChunks: Bool, client: GeminiAPIClient,
        context: CommandContext, services: GeminiServices, callsGo: (isChat: Bool, model: String?)
    ) async throws -> (CallReply, [Content]) {
        var accumulator = GeminiStreamAccumulator()
        var signatures: [Part] = []
        var callParts: [Part] = []
        var media: [Part] = []
        // Parts of a kind the client does not know, kept whole (their signatures with them).
        var unknown: [Part] = []
        // Code execution steps, printed as they arrive.
        var code: [Part] = []
        var grounding: JSONValue?
        var printer = StreamedTextPrinter(printsChunks: printsChunks, context: context, services: services)
        do {
            for try await chunk in client.streamGenerateContent(
                label: "ask", model: model, retryPolicy: policy, request: request)
            {
                accumulator.add(chunk)
                let parts = chunk.candidates?.first?.content?.parts ?? []
                for step in ToolExchange.codeSteps(parts) { context.io.printError(step.text) }
                code += parts.filter { $0.executableCode != nil || $0.codeExecutionResult != nil }
                grounding = chunk.candidates?.first?.groundingMetadata ?? grounding
                callParts += parts.filter { $0.functionCall != nil }
                media += parts.filter { $0.inlineData != nil }
                unknown += parts.filter { !$0.unknownMembers.isEmpty }
                signatures += parts.filter {
                    $0.thoughtSignature != nil && $0.thought != true && $0.unknownMembers.isEmpty
                }.map { Part(text: "", thoughtSignature: $0.thoughtSignature) }
                printer.print(chunk.text)
            }
        } catch {
            printer.finish()
            throw error
        }
        printer.finish()
        // A cancelled consumer sees the stream end without an error: say it was interrupted.
        try Task.checkCancellation()
        if let reason = accumulator.finishReason, reason == .safety || reason == .recitation {
            throw GeminiError.contentBlocked(reason: reason, partialText: accumulator.text)
        }
        if accumulator.text.isEmpty, media.isEmpty, unknown.isEmpty, callParts.isEmpty {
            // The one check of a complete reply, as for an unstreamed one: truncated at
            // MAX_TOKENS, a failed function call, a stop without content, or empty.
            _ = try GeminiAnswerReader().read(accumulator.response)
            throw GeminiError.emptyResponse
        }
        // The whole reply, as it would have come unstreamed: the code steps, the text, media and
        // parts of unknown kinds, then the calls, or else the text parts' thought signatures.
        // Calls go to ``ToolExchange/handle``, which prints code steps itself: theirs are
        // printed already.
        var parts =
            (callParts.isEmpty ? code : []) + (accumulator.text.isEmpty ? [] : [Part.text(accumulator.text)])
        parts += media + unknown + (callParts.isEmpty ? signatures : callParts)
        var candidate = Candidate(
            content: Content(role: "model", parts: parts), finishReason: accumulator.finishReason ?? .stop)
        candidate.groundingMetadata = grounding
        let saved = try ReplyMedia.save(media, context: context, services: services)
        let fallback = services.retriesInFlight.fallbackModel
        let envelope =
            GeminiCall.finish(
                model: fallback ?? model.id, requested: model.id, usage: accumulator.usage,
                retries: services.retriesInFlight.value, usedFallback: fallback != nil, started: started,
                context: context) + ReplyMedia.members(saved)
        return try answer(
            GenerateContentResponse(candidates: [candidate], usageMetadata: accumulator.usage),
            text: accumulator.text, userTurn: userTurn, history: Array(request.contents.dropLast()),
            envelope: envelope, streamed: (printed: printsChunks, codePrinted: true), isChat: callsGo.isChat,
            model: callsGo.model, context: context, services: services)
    }

    /// The `--json` members `code` and `sources` (each only when there is some).
    private static func codeAndSources(_ code: [ToolExchange.CodeStep], _ sources: [GroundingSource])
        -> [JSONMember]
    {
        (code.isEmpty ? [] : [JSONMember("code", .array(code.map(\.json)))])
            + ToolExchange.sourcesMembers(sources)
    }

    /// The model's turn for the conversation, as the model sent it: its parts without the
    /// thought summaries, thought signatures kept (they go back unchanged, per the API); the
    /// text alone when the reply had no usable content.
    static func modelTurn(_ content: Content?, text: String) -> Content {
        let parts = (content?.parts ?? []).filter { $0.thought != true }
        guard !parts.isEmpty else { return Content(role: "model", parts: [.text(text)]) }
        return Content(role: "model", parts: parts)
    }

    /// ``modelTurn(_:text:)`` with the key masked in its text parts, as in the answer: a key
    /// the model echoes never reaches the conversation or the log.
    private static func modelTurn(_ content: Content?, text: String, services: GeminiServices) -> Content {
        var turn = modelTurn(content, text: text)
        turn.parts = turn.parts?.map { part in
            guard let text = part.text else { return part }
            var part = part
            part.text = services.redact(text)
            return part
        }
        return turn
    }
}
