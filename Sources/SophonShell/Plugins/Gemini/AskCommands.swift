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
    }

    static func options(_ request: CommandRequest, allowNoSchema: Bool, context: CommandContext) throws
        -> Options
    {
        var model: String?
        var noSchema = false
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
            default:
                throw CommandFailure(kind: .usage, message: "\(request.name): unknown option '\(option)'")
            }
        }
        guard let prompt = request.rawArgument, !prompt.isEmpty else {
            throw context.usageFailure(request.name)
        }
        return Options(model: model, noSchema: noSchema, prompt: prompt)
    }

    /// `ask [--model ID] [--no-schema] PROMPT`: one turn.
    static func ask(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: true, context: context)
        let (reply, _) = try await turn(
            history: [], options: options, context: context, services: services)
        return .reply(reply)
    }

    /// `chat MESSAGE`: a turn in the session's conversation; the schema stays in force.
    static func chat(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: false, context: context)
        let history = context.session.withGeminiState { $0.conversation }
        let (reply, turns) = try await turn(
            history: history, options: options, context: context, services: services)
        context.session.withGeminiState { $0.conversation += turns }
        return .reply(reply)
    }

    /// One call: builds the request (history, attachments, prompt), sends it structured when a
    /// schema is in force, else as text (streamed when `stream on`).
    /// - Returns: the reply, and the user and model contents of this turn.
    private static func turn(
        history: [Content], options: Options, context: CommandContext, services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        let client = try GeminiCall.client(context: context, services: services)
        let settings = context.session.settings
        let (schema, attachments, policy) = context.session.withGeminiState {
            ($0.schema, $0.attachments, $0.retryPolicy)
        }
        let userTurn = Content(role: "user", parts: attachments + [.text(options.prompt)])
        let request = GenerateContentRequest(
            contents: history + [userTurn], systemInstruction: GeminiCall.systemInstruction(settings),
            generationConfig: GeminiCall.generationConfig(settings))
        let requested = options.model.map { GeminiModel(selection: $0).id } ?? settings.model
        let model = GeminiModel(selection: options.model ?? settings.model)
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
            if settings.stream, settings.output != .json {
                return try await streamed(
                    request: request, model: model, policy: policy, userTurn: userTurn, started: started,
                    client: client, context: context, services: services)
            }
            let result = try await client.generateText(
                label: "ask", contents: request.contents, model: model,
                systemInstruction: request.systemInstruction, generationConfig: request.generationConfig,
                retryPolicy: policy)
            let saved = try ReplyMedia.save(
                result.response.candidates?.first?.content?.parts ?? [], context: context, services: services)
            let envelope =
                GeminiCall.finish(
                    model: result.modelID, requested: requested, usage: result.usage,
                    retries: result.retryCount,
                    usedFallback: result.usedFallback, started: started, context: context)
                + ReplyMedia.members(saved)
            let answer = services.redact(result.value)
            let reply = CallReply(value: .string(answer), display: answer, envelope: envelope)
            let modelTurn = Self.modelTurn(result.response.candidates?.first?.content, text: result.value)
            return (reply, [userTurn, modelTurn])
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
    }

    /// A text answer printed chunk by chunk as it arrives. An error after some text keeps what
    /// was printed, ends the line, and fails the command.
    private static func streamed(
        request: GenerateContentRequest, model: GeminiModel, policy: GeminiRetryPolicy, userTurn: Content,
        started: ContinuousClock.Instant, client: GeminiAPIClient, context: CommandContext,
        services: GeminiServices
    ) async throws -> (CallReply, [Content]) {
        var accumulator = GeminiStreamAccumulator()
        var signatures: [Part] = []
        var media: [Part] = []
        var printedAny = false
        var endsWithNewline = true
        do {
            for try await chunk in client.streamGenerateContent(
                label: "ask", model: model, retryPolicy: policy, request: request)
            {
                accumulator.add(chunk)
                media += (chunk.candidates?.first?.content?.parts ?? []).filter { $0.inlineData != nil }
                signatures += (chunk.candidates?.first?.content?.parts ?? []).filter {
                    $0.thoughtSignature != nil && $0.thought != true
                }.map { Part(text: "", thoughtSignature: $0.thoughtSignature) }
                let text = services.redact(chunk.text)
                if !text.isEmpty {
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
        if accumulator.text.isEmpty, media.isEmpty { throw GeminiError.emptyResponse }
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
            value: .string(answer), display: answer, alreadyPrinted: true, envelope: envelope)
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
                let text = (content.parts ?? []).compactMap(\.text).joined()
                return "\(content.role ?? "user"): \(text)"
            }.joined(separator: "\n"))
    }

    /// `reset`: clears the conversation, not the settings.
    static func reset(context: CommandContext) -> CommandResult {
        context.session.withGeminiState { $0.conversation = [] }
        return .none
    }

    /// `tokens TEXT`: the total token count alone.
    static func tokens(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let options = try options(request, allowNoSchema: false, context: context)
        let client = try GeminiCall.client(context: context, services: services)
        let settings = context.session.settings
        let model = GeminiModel(selection: options.model ?? settings.model)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        do {
            let counted = try await client.countTokens(
                contents: [.user(options.prompt)], model: model,
                retryPolicy: context.session.withGeminiState { $0.retryPolicy })
            // countTokens bills nothing: the usage members are zero.
            let envelope = GeminiCall.finish(
                model: services.retriesInFlight.fallbackModel ?? model.id, requested: model.id, usage: nil,
                retries: services.retriesInFlight.value, usedFallback: false, started: started,
                context: context)
            return .reply(CallReply(value: .integer(counted.totalTokens ?? 0), envelope: envelope))
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
    }
}
