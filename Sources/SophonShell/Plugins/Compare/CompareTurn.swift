import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// Asks one ``CompareCandidate`` (docs/commands.md, "compare"): its request from the one turn
/// builder (session system, tools, safety and settings fitted to its model, or a prompt file's),
/// sent once through the client's one call path with the session's retry policy, without the
/// 404 fallback (a compared model answers as itself or fails), read by the one answer reader.
/// A failure is kept in the outcome, never thrown: the other models' blocks stand.
enum CompareTurn {
    static func run(
        _ candidate: CompareCandidate, client: GeminiAPIClient, context: CommandContext,
        services: GeminiServices
    ) async -> CompareOutcome {
        var outcome = CompareOutcome(candidate: candidate, modelID: candidate.model.id)
        let started = ContinuousClock.now
        defer {
            outcome.latency = ContinuousClock.now - started
            log(outcome, context: context)
        }
        do {
            let request = try self.request(candidate, context: context)
            outcome.request = request
            var policy = context.session.withGeminiState { $0.retryPolicy }
            policy.fallbackOn404 = false
            let result = try await client.generateText(
                label: "compare", request: request, model: candidate.model, retryPolicy: policy)
            outcome.modelID = result.modelID
            outcome.usage = result.usage
            outcome.retries = result.retryCount
            outcome.cost = services.prices.cost(model: result.modelID, usage: result.usage)
            CostLedger.count(outcome.cost, model: result.modelID, usage: result.usage, context: context)
            outcome.answer = .string(services.redact(result.value))
            if let schema = candidate.schema {
                do {
                    let read = try GeminiAPIClient.structuredValue(of: result.response, schema: schema)
                    outcome.answer = services.redact(read.value)
                    outcome.schemaCheck = (true, nil)
                } catch let error as GeminiError {
                    outcome.schemaCheck = (
                        false, error.description(language: context.session.settings.language)
                    )
                }
            }
        } catch let error as GeminiError {
            outcome.failure = GeminiCall.failure(error, context: context)
        } catch let failure as CommandFailure {
            outcome.failure = failure
        } catch {
            outcome.failure = CommandFailure(kind: .internalError, message: "\(error)")
        }
        return outcome
    }

    /// The request of `candidate` from the one turn builder, asking for JSON of its schema.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take a setting.
    static func request(_ candidate: CompareCandidate, context: CommandContext) throws
        -> GenerateContentRequest
    {
        let (tools, toolConfig) = GeminiCall.sessionTools(
            servedToo: false, functions: candidate.overrides.functions, context: context)
        return try GeminiCall.request(
            contents: candidate.contents, tools: tools, toolConfig: toolConfig, model: candidate.model,
            schema: candidate.schema, overrides: candidate.overrides, context: context)
    }

    /// Logs the exchange (docs/logs.md) as command `compare`.
    private static func log(_ outcome: CompareOutcome, context: CommandContext) {
        let settings = context.session.settings
        let prompt = outcome.candidate.contents.last.map(ExchangeLog.text(of:)) ?? ""
        var entry = LogEntry(
            time: Date(), command: "compare", conversationID: nil, model: outcome.modelID, prompt: prompt,
            systemInstruction: outcome.candidate.overrides.system.map(ExchangeLog.text(of:))
                ?? settings.system,
            schema: outcome.candidate.schema?.jsonValue.compactText,
            settings: ExchangeLog.settingsJSON(settings).compactText)
        entry.answer = outcome.answer.map { $0.stringValue ?? $0.compactText }
        entry.promptTokens = outcome.usage?.promptTokenCount ?? 0
        entry.outputTokens = outcome.usage?.candidatesTokenCount ?? 0
        entry.thoughtsTokens = outcome.usage?.thoughtsTokenCount ?? 0
        entry.totalTokens = outcome.usage?.totalTokenCount ?? 0
        entry.cost = outcome.cost
        entry.durationMilliseconds = Int(
            outcome.latency.components.seconds * 1000 + outcome.latency.components.attoseconds
                / 1_000_000_000_000_000)
        entry.error = outcome.failure.map { "\($0.kind.rawValue): \($0.message)" }
        ExchangeLog.write(entry, context: context)
    }
}
