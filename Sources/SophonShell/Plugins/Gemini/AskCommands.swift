import Foundation
import SophonCore
import SophonGemini

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

        /// The parts of the user's turn after the attachments: the piped text, then the prompt.
        var promptParts: [Part] { (input.map { [Part.text($0)] } ?? []) + [.text(prompt)] }
    }

    /// A dry run ended: the request that would have been sent, rendered for stdout.
    struct DryRun: Error {
        var text: String
    }

    static func options(_ request: CommandRequest, allowNoSchema: Bool, context: CommandContext) throws
        -> Options
    {
        var model: String?
        var noSchema = false
        var dryRun = context.session.settings.dryRun
        var words = request.arguments[...]
        if let first = words.first, first == request.name { words.removeFirst() }
        while let option = words.popFirst() {
            switch option {
            case "--model":
                guard let value = words.popFirst() else {
                    throw CommandFailure(kind: .usage, message: "\(request.name): --model needs a model ID")
                }
                model = value
            case let other where other.hasPrefix("--model="):
                model = String(other.dropFirst("--model=".count))
            case "--no-schema" where allowNoSchema:
                noSchema = true
            case "--dry-run":
                dryRun = true
            default:
                let known = allowNoSchema ? ["--model", "--no-schema"] : ["--model"]
                throw CommandFailure(
                    kind: .usage,
                    message: "\(request.name): " + ShellMessages.unknownOption(option, among: known))
            }
        }
        let input = try pipedInput(context: context)
        if let prompt = request.rawArgument, !prompt.isEmpty {
            return Options(model: model, noSchema: noSchema, prompt: prompt, dryRun: dryRun, input: input)
        }
        guard let input else { throw context.usageFailure(request.name) }
        return Options(model: model, noSchema: noSchema, prompt: input, dryRun: dryRun)
    }

    /// In one-command mode, all of stdin when it is not a terminal and not empty
    /// (`echo text | sophon ask summarize`), as sent: nothing trimmed.
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
        return text
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
                try await turn(history: [], options: options, context: context, services: services)
            }
            return .reply(reply)
        } catch let dryRun as DryRun {
            return .text(dryRun.text)
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
                try await turn(
                    history: history, options: options, isChat: true, context: context, services: services)
            }
            context.session.withGeminiState { $0.conversation += turns }
            return .reply(reply)
        } catch let dryRun as DryRun {
            return .text(dryRun.text)
        }
    }

    /// One call: builds the request (history, attachments, prompt), sends it structured when a
    /// schema is in force, else as text (streamed when `stream on`).
    /// - Returns: the reply, and the user and model contents of this turn.
    private static func turn(
        history: [Content], options: Options, isChat: Bool = false, context: CommandContext,
        services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        if let failure = ToolCommands.pendingFailure(command: isChat ? "chat" : "ask", context: context) {
            throw failure
        }
        let dryRun = options.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(context: context, services: services)
        let settings = context.session.settings
        let (schema, attachments, policy) = context.session.withGeminiState {
            ($0.schema, $0.attachments, $0.retryPolicy)
        }
        let userTurn = Content(role: "user", parts: attachments + options.promptParts)
        var (hasTools, tools, toolConfig) = context.session.withToolState {
            ($0.hasTools, $0.toolsValue, $0.toolConfigValue)
        }
        hasTools = hasTools || !ServedTools(context: context, services: services).declarations.isEmpty
        if !hasTools { hasTools = await MCPServedTools.available(context: context, services: services) }
        if hasTools {
            defer {
                context.session.withGeminiState {
                    $0.attachments = []; $0.attachmentNames = []
                }
            }
            do {
                let reply = try await ToolExchange.send(
                    contents: history + [userTurn], isChat: isChat, conversationCount: history.count,
                    model: options.model, context: context, services: services,
                    schema: options.noSchema ? nil : schema, client: dryRun == nil ? nil : client)
                return (reply, [])
            } catch let error as DryRunTransport.Stopped {
                // `--dry-run` with tools: the first request, as it would go; no key needed.
                guard let sent = dryRun?.request else { throw error }
                throw DryRun(text: DryRunTransport.rendered(sent))
            }
        }
        let requested = options.model.map { GeminiModel(selection: $0).id } ?? settings.model
        let model = GeminiModel(selection: options.model ?? settings.model)
        let request = try GeminiCall.request(
            contents: history + [userTurn], tools: tools, toolConfig: toolConfig, model: model,
            context: context)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        defer {
            context.session.withGeminiState {
                $0.attachments = []; $0.attachmentNames = []
            }
        }
        do {
            if let schema, !options.noSchema {
                let result = try await client.generateJSON(
                    label: "ask", request: request, schema: schema, model: model, retryPolicy: policy)
                for coercion in result.coercions {
                    context.io.printError(ShellMessages.coerced("\(coercion)"))
                }
                let saved = try ReplyMedia.save(
                    result.response.candidates?.first?.content?.parts ?? [], context: context,
                    services: services)
                let envelope =
                    GeminiCall.finish(
                        model: result.modelID, requested: requested, usage: result.usage,
                        retries: result.retryCount,
                        usedFallback: result.usedFallback, started: started, context: context)
                    + ReplyMedia.members(saved)
                let modelTurn = Self.modelTurn(
                    result.response.candidates?.first?.content, text: result.response.text)
                return (
                    CallReply(value: services.redact(result.value), envelope: envelope),
                    [userTurn, modelTurn]
                )
            }
            if settings.stream, !hasTools {
                // `--json` changes what is printed, never the request: the answer still streams
                // and prints once, as JSON, at the end (docs/tapes.md).
                return try await streamed(
                    request: request, model: model, policy: policy, userTurn: userTurn, started: started,
                    printsChunks: settings.output != .json, client: client, context: context,
                    services: services, callsGo: (isChat: isChat, model: options.model))
            }
            let result = try await client.generateText(
                label: "ask", request: request, model: model, retryPolicy: policy)
            let saved = try ReplyMedia.save(
                result.response.candidates?.first?.content?.parts ?? [], context: context, services: services)
            let envelope =
                GeminiCall.finish(
                    model: result.modelID, requested: requested, usage: result.usage,
                    retries: result.retryCount,
                    usedFallback: result.usedFallback, started: started, context: context)
                + ReplyMedia.members(saved)
            if !ToolExchange.hasCalls(result.response) {
                ToolExchange.reportUnknownParts(
                    result.response.candidates?.first?.content?.parts ?? [], context: context)
            }
            if ToolExchange.hasCalls(result.response) {
                // Calls to a request that declared no tools: returned as calls, never as "".
                let reply = try ToolExchange.handle(
                    result.response, contents: history + [userTurn], isChat: isChat,
                    conversationCount: history.count, model: options.model, envelope: envelope,
                    context: context, services: services)
                return (reply, [])
            }
            let answer = services.redact(result.value)
            let reply = CallReply(value: .string(answer), display: answer, envelope: envelope)
            let modelTurn = Self.modelTurn(result.response.candidates?.first?.content, text: result.value)
            return (reply, [userTurn, modelTurn])
        } catch let error as GeminiError {
            throw GeminiCall.failure(
                error, requested: requested, fallback: services.retriesInFlight.fallbackModel,
                context: context)
        } catch let error as DryRunTransport.Stopped {
            guard let sent = dryRun?.request else { throw error }
            throw DryRun(text: DryRunTransport.rendered(sent))
        }
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
        var printedAny = false
        var endsWithNewline = true
        do {
            for try await chunk in client.streamGenerateContent(
                label: "ask", model: model, retryPolicy: policy, request: request)
            {
                accumulator.add(chunk)
                callParts += (chunk.candidates?.first?.content?.parts ?? []).filter { $0.functionCall != nil }
                media += (chunk.candidates?.first?.content?.parts ?? []).filter { $0.inlineData != nil }
                signatures += (chunk.candidates?.first?.content?.parts ?? []).filter {
                    $0.thoughtSignature != nil && $0.thought != true
                }.map { Part(text: "", thoughtSignature: $0.thoughtSignature) }
                let text = services.redact(chunk.text)
                if printsChunks, !text.isEmpty {
                    context.io.stdout.write(text)
                    printedAny = true
                    endsWithNewline = text.hasSuffix("\n")
                }
            }
        } catch {
            if printedAny, !endsWithNewline { context.io.stdout.write("\n") }
            throw error
        }
        if printedAny, !endsWithNewline { context.io.stdout.write("\n") }
        // A cancelled consumer sees the stream end without an error: say it was interrupted.
        try Task.checkCancellation()
        if let reason = accumulator.finishReason, reason == .safety || reason == .recitation {
            throw GeminiError.contentBlocked(reason: reason, partialText: accumulator.text)
        }
        if !callParts.isEmpty {
            // Function calls to a request without tools: returned as calls, never as "".
            let envelope = GeminiCall.finish(
                model: services.retriesInFlight.fallbackModel ?? model.id, requested: model.id,
                usage: accumulator.usage, retries: services.retriesInFlight.value,
                usedFallback: services.retriesInFlight.fallbackModel != nil, started: started,
                context: context)
            let text = accumulator.text.isEmpty ? [] : [Part.text(accumulator.text)]
            let response = GenerateContentResponse(candidates: [
                Candidate(content: Content(role: "model", parts: text + callParts), finishReason: .stop)
            ])
            let reply = try ToolExchange.handle(
                response, contents: request.contents, isChat: callsGo.isChat,
                conversationCount: request.contents.count - 1, model: callsGo.model, envelope: envelope,
                context: context, services: services)
            return (reply, [])
        }
        if accumulator.text.isEmpty, media.isEmpty {
            if let reason = accumulator.finishReason, reason != .stop, reason != .maxTokens {
                throw GeminiError.stoppedWithoutContent(
                    reason: reason, finishMessage: accumulator.finishMessage)
            }
            throw GeminiError.emptyResponse
        }
        let saved = try ReplyMedia.save(media, context: context, services: services)
        let retries = services.retriesInFlight.value
        let fallback = services.retriesInFlight.fallbackModel
        let envelope =
            GeminiCall.finish(
                model: fallback ?? model.id, requested: model.id, usage: accumulator.usage, retries: retries,
                usedFallback: fallback != nil,
                started: started,
                context: context) + ReplyMedia.members(saved)
        let answer = services.redact(accumulator.text)
        let reply = CallReply(
            value: .string(answer), display: answer, alreadyPrinted: printsChunks, envelope: envelope)
        let modelTurn = Content(role: "model", parts: [.text(accumulator.text)] + media + signatures)
        return (reply, [userTurn, modelTurn])
    }

    /// The model's turn for the conversation, as the model sent it: its parts without the
    /// thought summaries, thought signatures kept (they go back unchanged, per the API); the
    /// text alone when the reply had no usable content.
    static func modelTurn(_ content: Content?, text: String) -> Content {
        let parts = (content?.parts ?? []).filter { $0.thought != true }
        guard !parts.isEmpty else { return Content(role: "model", parts: [.text(text)]) }
        return Content(role: "model", parts: parts)
    }

    /// `history`: the conversation, one turn per line.
    static func history(context: CommandContext) -> CommandResult {
        let conversation = context.session.withGeminiState { $0.conversation }
        guard !conversation.isEmpty else { return .text("(no conversation yet; start one with 'chat')") }
        return .text(
            conversation.map { content in
                let text = (content.parts ?? []).compactMap { part -> String? in
                    if let call = part.functionCall {
                        return "[call \(call.name) \((call.args ?? .object([])).compactText)]"
                    }
                    if let response = part.functionResponse {
                        return "[response \(response.name) \((response.response ?? .object([])).compactText)]"
                    }
                    return part.text
                }.joined()
                return "\(content.role ?? "user"): \(text)"
            }.joined(separator: "\n"))
    }

    /// `reset`: clears the conversation, not the settings.
    static func reset(context: CommandContext) -> CommandResult {
        context.session.withGeminiState { $0.conversation = [] }
        context.session.withToolState { $0.pending = nil }
        return .none
    }

    /// What `ask PROMPT` would send now (attachments, prompt, system instruction, generation
    /// settings, the schema in force), for `tokens` to count. Attachments stay for the next ask.
    static func countedRequest(parts: [Part], context: CommandContext) -> GenerateContentRequest {
        let settings = context.session.settings
        let (schema, attachments) = context.session.withGeminiState { ($0.schema, $0.attachments) }
        var request = GenerateContentRequest(
            contents: [Content(role: "user", parts: attachments + parts)],
            systemInstruction: GeminiCall.systemInstruction(settings),
            generationConfig: GeminiCall.generationConfig(settings))
        if let schema {
            var config = request.generationConfig ?? GenerationConfig()
            config.responseMimeType = "application/json"
            config.responseSchema = schema
            request.generationConfig = config
        }
        return request
    }

    /// `tokens TEXT`: the total token count of what `ask TEXT` would send.
    static func tokens(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: false, context: context)
        let dryRun = options.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(context: context, services: services)
        let settings = context.session.settings
        let model = GeminiModel(selection: options.model ?? settings.model)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        do {
            var counted = countedRequest(parts: options.promptParts, context: context)
            try GeminiCall.fitThinking(&counted, model: model, context: context)
            let reply = try await client.countTokens(
                request: counted, model: model,
                retryPolicy: context.session.withGeminiState { $0.retryPolicy })
            // countTokens bills nothing: the usage members are zero.
            let envelope = GeminiCall.finish(
                model: services.retriesInFlight.fallbackModel ?? model.id, requested: model.id, usage: nil,
                retries: services.retriesInFlight.value, usedFallback: false, started: started,
                context: context)
            return .reply(CallReply(value: .integer(reply.totalTokens ?? 0), envelope: envelope))
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        } catch let error as DryRunTransport.Stopped {
            guard let sent = dryRun?.request else { throw error }
            return .text(DryRunTransport.rendered(sent))
        }
    }
}
