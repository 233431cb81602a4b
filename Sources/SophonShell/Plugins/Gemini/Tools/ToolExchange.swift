import Foundation
import SophonCore
import SophonGemini

/// One model request of a tool-using command and what its reply becomes (docs/commands.md,
/// "Tools"): function calls wait as pending calls and are the command's result
/// (`{"functionCalls": [...]}`); code execution prints on stderr; a grounded answer prints its
/// `Sources:` after it.
enum ToolExchange {
    /// Sends `contents` with the session's tools and settings, and turns the reply into the
    /// command's result.
    /// - Parameters:
    ///   - contents: the whole history to send, oldest first.
    ///   - isChat: whether the exchange belongs to the `chat` conversation.
    ///   - conversationCount: how many of `contents` the conversation already holds.
    ///   - model: the `--model` of the command, if any.
    ///   - schema: the answer schema in force (`schema`, unless `--no-schema`): each request
    ///     asks for JSON of that schema, and the final answer is decoded with it; a reply of
    ///     function calls is still the calls.
    ///   - client: the client to send with (a dry run's, which needs no key); `nil`: the
    ///     session's.
    /// - Throws: ``CommandFailure`` for every ``GeminiError`` (`decodingFailed` when the final
    ///   answer holds no JSON fitting `schema`).
    static func send(
        contents: [Content], isChat: Bool, conversationCount: Int, model: String?, context: CommandContext,
        services: GeminiServices, schema: GeminiSchema? = nil, overrides: TurnOverrides = TurnOverrides(),
        client: GeminiAPIClient? = nil
    ) async throws -> CallReply {
        let client =
            try client ?? GeminiCall.client(command: "tool-reply", context: context, services: services)
        let settings = context.session.geminiSettings
        let policy = context.session.withGeminiState { $0.retryPolicy }
        if context.session.withToolState({ $0.offersFunctions }) {
            await ServedTools.startServers(context: context, services: services)
        }
        let served = ServedTools(context: context, services: services)
        var state = context.session.withToolState { $0 }
        let maxRounds = state.rounds
        state.declarations += overrides.functions + served.declarations
        let tools = state.toolsValue
        let toolConfig = state.toolConfigValue
        let requested = model.map { GeminiModel(selection: $0).id } ?? settings.model
        let selection = GeminiModel(selection: model ?? settings.model)
        // One request for every round (the same builder as `ask`); with a schema in force,
        // every round asks for JSON of it. Only its contents grow.
        let request = try GeminiCall.request(
            contents: contents, tools: tools, toolConfig: toolConfig, model: selection, schema: schema,
            overrides: overrides, context: context)
        let server = served.server(context: context, services: services)
        var conversation = GeminiConversation(history: contents)
        var envelope: [JSONMember] = []
        var last: (model: String, retries: Int)?
        // Each round is an exchange of its own: priced as it comes, and a row of the log.
        var rounds = ExchangeRounds.Recorder()
        defer {
            ExchangeRounds.current?.record(
                ExchangeRounds.rounds(
                    rounds.rounds, turns: conversation.history.dropFirst(max(contents.count - 1, 0)),
                    redact: { services.redact($0) }))
        }
        // Media in every round's reply is saved as it arrives (never dropped: docs/commands.md, "Reply media").
        var media: [ReplyMedia.Saved] = []
        var mediaFailure: (any Error)?
        let run: GeminiToolRun
        do {
            run = try await client.runTools(
                label: "ask", conversation: &conversation, request: request,
                server: server, model: selection,
                maxToolRounds: maxRounds, retryPolicy: policy
            ) { event in
                switch event {
                case .sending: rounds.sending(services)
                case .received(_, let result, let answering):
                    last = (result.modelID, result.retryCount)
                    envelope = rounds.received(
                        model: result.modelID, requested: requested, usage: result.usage,
                        retries: result.retryCount, usedFallback: result.usedFallback, served: answering,
                        context: context)
                    let parts = result.response.candidates?.first?.content?.parts ?? []
                    do {
                        media += try ReplyMedia.save(parts, context: context, services: services)
                    } catch {
                        mediaFailure = mediaFailure ?? error
                    }
                    guard answering else { return }
                    reportUnknownParts(parts, context: context)
                    for step in codeSteps(parts) { context.io.printError(step.text) }
                }
            }
        } catch GeminiToolError.tooManyRounds(let rounds, _) {
            throw roundsExceeded(rounds, pending: conversation.pendingCalls)
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
        // The envelope of the last call, with the usage and cost of the whole exchange (each
        // round priced as its own exchange, as `compare` prices them).
        if let last {
            envelope = GeminiCall.envelope(
                model: last.model, usage: run.usage, retries: last.retries,
                cost: CostText.total(rounds.rounds.map(\.cost)))
        }
        if let mediaFailure { throw mediaFailure }
        envelope += ReplyMedia.members(media)
        // An answer that mixes served calls with calls nobody serves: the served ones run now
        // (docs/commands.md, "Served calls"), the others wait for
        // `tool-reply`.
        let calls = (run.response.candidates?.first?.content?.parts ?? []).compactMap(\.functionCall)
        var answered: [JSONValue?] = calls.map { _ in nil }
        for (index, call) in calls.enumerated() where server.serves(call.name) {
            answered[index] = await server.answer(call)
        }
        do {
            return try handle(
                run.response, contents: Array(conversation.history.dropLast()), isChat: isChat,
                conversationCount: conversationCount, model: model, envelope: envelope, context: context,
                services: services, schema: schema, answered: answered)
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
    }

    /// The failure of a tool exchange stopped by `tool-rounds`, naming the calls left pending
    /// (generateContent and the Interactions API alike).
    static func roundsExceeded(_ rounds: Int, pending: [FunctionCall]) -> CommandFailure {
        CommandFailure(
            kind: .toolRoundsExceeded,
            message:
                "the model still asked for function calls after \(rounds) rounds (set tool-rounds N): "
                + pending.map(\.name).joined(separator: ", "))
    }

    /// Whether `response` asks for function calls.
    static func hasCalls(_ response: GenerateContentResponse) -> Bool {
        (response.candidates?.first?.content?.parts ?? []).contains { $0.functionCall != nil }
    }

    /// The command's result for a checked reply: pending calls, or the answer (with code and
    /// sources), decoded with `schema` when one is given. Updates the conversation (chat) and
    /// the pending calls.
    /// - Parameter answered: the responses of the calls already answered (a served call of an
    ///   answer that also has calls nobody serves), by call index; the result lists only the
    ///   calls still unanswered.
    /// - Throws: ``GeminiError`` (`decodingFailed`, `truncated`) when the answer does not decode
    ///   with `schema`; nothing changes then.
    static func handle(
        _ response: GenerateContentResponse, contents: [Content], isChat: Bool, conversationCount: Int,
        model: String?, envelope: [JSONMember], context: CommandContext, services: GeminiServices,
        schema: GeminiSchema? = nil, answered: [JSONValue?] = []
    ) throws -> CallReply {
        let content = response.candidates?.first?.content
        let parts = content?.parts ?? []
        reportUnknownParts(parts, context: context)
        let code = codeSteps(parts)
        for step in code { context.io.printError(step.text) }
        // The model turn exactly as received (thought parts and signatures too), as the API
        // wants it back during function calling (docs/library.md, "Tools").
        let modelTurn =
            parts.isEmpty
            ? Content(role: "model", parts: [.text(response.text)]) : Content(role: "model", parts: parts)
        var extra: [JSONMember] = []
        if !code.isEmpty { extra.append(JSONMember("code", .array(code.map(\.json)))) }
        let calls = parts.compactMap(\.functionCall)
        if !calls.isEmpty {
            let responses = calls.indices.map { $0 < answered.count ? answered[$0] : nil }
            let pending = PendingToolCalls(
                contents: contents + [modelTurn], calls: calls, responses: responses,
                isChat: isChat,
                conversationCount: conversationCount, model: model, schema: schema)
            context.session.withToolState { $0.pending = pending }
            let waiting = zip(calls, responses).filter { $0.1 == nil }.map(\.0)
            let value = JSONValue.object([
                JSONMember("functionCalls", .array(waiting.map { services.redact(callValue($0)) }))
            ])
            return CallReply(value: value, envelope: envelope + extra)
        }
        var structured: JSONValue?
        if let schema {
            let (value, coercions) = try GeminiAPIClient.structuredValue(of: response, schema: schema)
            for coercion in coercions { context.io.printError(ShellMessages.coerced(coercion)) }
            structured = value
        }
        let sources = groundingSources(response.candidates?.first?.groundingMetadata)
        context.session.withToolState {
            $0.pending = nil
            $0.sources = sources
        }
        if isChat { context.session.withGeminiState { $0.conversation = contents + [modelTurn] } }
        extra += ToolExchange.sourcesMembers(sources)
        if let structured {
            return CallReply(value: services.redact(structured), envelope: envelope + extra)
        }
        let answer = services.redact(response.text)
        let display = sources.isEmpty ? answer : answer + "\n" + sourcesText(sources)
        return CallReply(value: .string(answer), display: display, envelope: envelope + extra)
    }

    /// A note on stderr for each part kind the client does not know (kept in the history).
    static func reportUnknownParts(_ parts: [Part], context: CommandContext) {
        for kind in parts.flatMap(\.unknownKinds) {
            context.io.printError(
                ShellMessages.note("the reply has a '\(kind)' part, kept in the history as sent"))
        }
    }

    /// `{"id"?, "name", "args"}`: `id` only when the model sent one, `args` `{}` when absent.
    static func callValue(_ call: FunctionCall) -> JSONValue {
        var members: [JSONMember] = []
        if let id = call.id { members.append(JSONMember("id", .string(id))) }
        members.append(JSONMember("name", .string(call.name)))
        members.append(JSONMember("args", call.args ?? .object([])))
        return .object(members)
    }

    /// The reply envelope's `sources`: `[{"title", "uri"}]` in order; no member without sources.
    static func sourcesMembers(_ sources: [GroundingSource]) -> [JSONMember] {
        guard !sources.isEmpty else { return [] }
        let items = sources.map {
            JSONValue.object([JSONMember("title", .string($0.title)), JSONMember("uri", .string($0.uri))])
        }
        return [JSONMember("sources", .array(items))]
    }

    /// `Sources:` and one `[N] TITLE URI` line per source (N from 1).
    static func sourcesText(_ sources: [GroundingSource]) -> String {
        (["Sources:"]
            + sources.enumerated().map { "[\($0.offset + 1)] \($0.element.title) \($0.element.uri)" })
            .joined(separator: "\n")
    }

    /// The web sources of `groundingMetadata.groundingChunks`, in order (docs/commands.md).
    static func groundingSources(_ metadata: JSONValue?) -> [GroundingSource] {
        guard case .array(let chunks)? = metadata?["groundingChunks"] else { return [] }
        return chunks.compactMap { chunk in
            guard let web = chunk["web"], let uri = web["uri"]?.stringValue else { return nil }
            return GroundingSource(title: web["title"]?.stringValue ?? uri, uri: uri)
        }
    }

    /// One code-execution step of a reply: the code, or its result.
    struct CodeStep {
        var text: String
        var json: JSONValue
    }

    /// The `executableCode` and `codeExecutionResult` parts, in order, as stderr text and
    /// `--json` objects (`{"language", "code"}`, `{"outcome", "output"}`).
    static func codeSteps(_ parts: [Part]) -> [CodeStep] {
        parts.compactMap { part in
            if let code = part.executableCode {
                let language = code.language ?? "PYTHON"
                return CodeStep(
                    text: "code (\(language)):\n\(code.code ?? "")".trimmingTrailingNewlines,
                    json: .object([
                        JSONMember("language", .string(language)),
                        JSONMember("code", .string(code.code ?? "")),
                    ]))
            }
            if let result = part.codeExecutionResult {
                let outcome = result.outcome ?? "OUTCOME_UNSPECIFIED"
                return CodeStep(
                    text: "output (\(outcome)):\n\(result.output ?? "")".trimmingTrailingNewlines,
                    json: .object([
                        JSONMember("outcome", .string(outcome)),
                        JSONMember("output", .string(result.output ?? "")),
                    ]))
            }
            return nil
        }
    }
}

extension String {
    /// The text without its trailing line breaks.
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
