import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// Asks one ``CompareCandidate`` (docs/commands.md, "compare"): its request from the one turn
/// builder (session system, tools, safety and settings fitted to its model, or a prompt file's),
/// sent through the client's one call path with the session's retry policy, without the 404
/// fallback (a compared model answers as itself or fails), read by the one answer reader. When
/// the session has tools (declared functions, built-ins, or functions served by plugins and MCP
/// servers) the turn goes through the one tool loop, as `ask`'s does: served calls are answered
/// (one at a time across the models, ``CompareToolCalls``), and calls nobody serves end the
/// turn as its answer (`{"functionCalls": [...]}`). A failure is kept in the outcome, never
/// thrown: the other models' blocks stand.
enum CompareTurn {
    static func run(
        _ candidate: CompareCandidate, tools: CompareToolCalls?, client: GeminiAPIClient,
        context: CommandContext, services: GeminiServices
    ) async -> CompareOutcome {
        var outcome = CompareOutcome(candidate: candidate, modelID: candidate.model.id)
        let started = ContinuousClock.now
        var conversation = GeminiConversation(history: candidate.contents)
        let rounds = ExchangeRounds()
        do {
            try await ExchangeRounds.$current.withValue(rounds) {
                try await ask(
                    candidate, into: &outcome, conversation: &conversation, tools: tools, client: client,
                    context: context, services: services)
            }
        } catch let error as GeminiError {
            outcome.failure = GeminiCall.failure(error, context: context)
        } catch let failure as CommandFailure {
            outcome.failure = failure
        } catch {
            outcome.failure = CommandFailure(kind: .internalError, message: "\(error)")
        }
        // Set here, not in a `defer`: a `defer` runs after the returned copy is made.
        outcome.latency = ContinuousClock.now - started
        outcome.turns = Array(conversation.history.dropFirst(candidate.contents.count))
        log(outcome, rounds: rounds.recorded, context: context)
        return outcome
    }

    /// Sends the turn of `candidate` and reads its answer into `outcome`; the model turns and
    /// function responses go to `conversation`.
    private static func ask(
        _ candidate: CompareCandidate, into outcome: inout CompareOutcome,
        conversation: inout GeminiConversation, tools: CompareToolCalls?, client: GeminiAPIClient,
        context: CommandContext, services: GeminiServices
    ) async throws {
        let request = try self.request(
            candidate, servedToo: tools != nil, context: context, services: services)
        outcome.request = request
        var policy = context.session.withGeminiState { $0.retryPolicy }
        policy.fallbackOn404 = false
        let response: GenerateContentResponse
        let text: String
        if let tools {
            var rounds: [ExchangeRounds.Round] = []
            var roundStart = ExchangeRounds.Round.Start()
            defer {
                ExchangeRounds.current?.record(
                    ExchangeRounds.rounds(
                        rounds, turns: conversation.history.dropFirst(max(candidate.contents.count - 1, 0)),
                        redact: { services.redact($0) }))
            }
            let run: GeminiToolRun
            do {
                run = try await client.runTools(
                    label: "compare", conversation: &conversation, request: request, server: tools.server,
                    model: candidate.model, maxToolRounds: context.session.withToolState { $0.rounds },
                    retryPolicy: policy
                ) { event in
                    switch event {
                    case .sending: roundStart = .init()
                    case .received(_, let result, let answering):
                        // Each round is an exchange of its own: counted, priced and logged.
                        let cost = services.prices.cost(
                            model: result.modelID, usage: result.usage,
                            tier: ServedTier.pricing(result.usage, context: context))
                        CostLedger.count(cost, model: result.modelID, usage: result.usage, context: context)
                        rounds.append(
                            ExchangeRounds.Round(
                                started: roundStart, model: result.modelID, usage: result.usage, cost: cost,
                                served: answering))
                    }
                }
            } catch GeminiToolError.tooManyRounds(let rounds, _) {
                throw ToolExchange.roundsExceeded(rounds, pending: conversation.pendingCalls)
            }
            outcome.modelID = run.lastResult.modelID
            outcome.usage = run.usage
            outcome.retries = run.lastResult.retryCount
            outcome.cost = CostText.total(rounds.map(\.cost))
            response = run.response
            text = run.text
        } else {
            let result = try await client.generateText(
                label: "compare", request: request, model: candidate.model, retryPolicy: policy)
            conversation.appendModel(
                result.response.candidates?.first?.content
                    ?? Content(role: "model", parts: [.text(result.value)]))
            outcome.modelID = result.modelID
            outcome.usage = result.usage
            outcome.retries = result.retryCount
            outcome.cost = services.prices.cost(
                model: result.modelID, usage: result.usage,
                tier: ServedTier.pricing(result.usage, context: context))
            CostLedger.count(outcome.cost, model: result.modelID, usage: result.usage, context: context)
            response = result.response
            text = result.value
        }
        let calls = conversation.pendingCalls
        if !calls.isEmpty {
            // Calls nobody serves (functions declared with `tool`): the turn's answer, as
            // `ask` returns them; compare keeps no pending calls for `tool-reply`.
            outcome.answer = services.redact(
                .object([JSONMember("functionCalls", .array(calls.map(ToolExchange.callValue)))]))
            return
        }
        outcome.answer = .string(services.redact(text))
        if let schema = candidate.schema {
            do {
                let read = try GeminiAPIClient.structuredValue(of: response, schema: schema)
                outcome.answer = services.redact(read.value)
                outcome.schemaCheck = (true, nil)
            } catch let error as GeminiError {
                outcome.schemaCheck = (
                    false, error.description(language: context.session.settings.language)
                )
            }
        }
    }

    /// The request of `candidate` from the one turn builder, asking for JSON of its schema, with
    /// the session's tools (and, when `servedToo`, the functions plugins and MCP servers serve).
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take a setting.
    static func request(
        _ candidate: CompareCandidate, servedToo: Bool, context: CommandContext, services: GeminiServices
    ) throws -> GenerateContentRequest {
        let (tools, toolConfig) = GeminiCall.sessionTools(
            servedToo: servedToo, functions: candidate.overrides.functions, context: context,
            services: services)
        return try GeminiCall.request(
            contents: candidate.contents, tools: tools, toolConfig: toolConfig, model: candidate.model,
            schema: candidate.schema, overrides: candidate.overrides, context: context)
    }

    /// The tools of a compare of `candidates`: `nil` when the turn has none (a plain call per
    /// model); else the queue serving the plugins' and MCP servers' functions (started now if
    /// need be, as for `ask`).
    static func tools(
        for candidates: [CompareCandidate], context: CommandContext, services: GeminiServices
    ) async -> CompareToolCalls? {
        let declared = candidates.contains { !$0.overrides.functions.isEmpty }
        guard await AskTurn.hasTools(context: context, services: services) || declared else { return nil }
        if context.session.withToolState({ $0.offersFunctions }) {
            await ServedTools.startServers(context: context, services: services)
        }
        return CompareToolCalls(
            ServedTools(context: context, services: services).server(context: context, services: services))
    }

    /// Logs the exchange (docs/logs.md) as command `compare`: a row per request (``ExchangeRounds``).
    private static func log(
        _ outcome: CompareOutcome, rounds: [ExchangeRounds.Round], context: CommandContext
    ) {
        let settings = context.session.geminiSettings
        let prompt = outcome.candidate.contents.last.map(ExchangeLog.text(of:)) ?? ""
        var entry = LogEntry(
            time: Date(), command: "compare", conversationID: nil, model: outcome.modelID, prompt: prompt,
            systemInstruction: outcome.candidate.overrides.system.map(ExchangeLog.text(of:))
                ?? settings.system,
            schema: outcome.candidate.schema?.jsonValue.compactText,
            settings: ExchangeLog.settingsJSON(settings).compactText)
        entry.answer = outcome.answer.map { $0.stringValue ?? $0.compactText }
        entry.count(outcome.usage)
        entry.cost = outcome.cost
        entry.durationMilliseconds = outcome.latency.wholeMilliseconds
        entry.error = outcome.failure.map { "\($0.kind.rawValue): \($0.message)" }
        if outcome.failure == nil, let prompt = outcome.candidate.contents.last {
            entry.turns = ExchangeLog.turnsJSON([prompt] + outcome.turns)
        }
        for row in ExchangeRounds.entries(entry, rounds: rounds) { ExchangeLog.write(row, context: context) }
    }
}

/// The served tools of one `compare` (docs/commands.md, "compare"): the models run at once,
/// each through the one tool loop, but their calls to plugins and MCP servers are served one at
/// a time, in the order they arrive, so a consent question is never interleaved with another
/// and a plugin sees one call at a time, as under `ask`.
actor CompareToolCalls {
    private let served: GeminiToolServer
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The queue in front of `served` (``ServedTools/server(context:services:)``).
    init(_ served: GeminiToolServer) { self.served = served }

    /// The loop's server for one model: the same declarations and served names, each call
    /// answered through this queue.
    nonisolated var server: GeminiToolServer {
        GeminiToolServer(
            declarations: served.declarations, oneAtATime: true, serves: served.serves,
            answer: { [self] call in await self.answer(call) })
    }

    /// Answers `call` once no other model's call is being answered.
    private func answer(_ call: FunctionCall) async -> JSONValue {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        let response = await served.answer(call)
        busy = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
        return response
    }
}
