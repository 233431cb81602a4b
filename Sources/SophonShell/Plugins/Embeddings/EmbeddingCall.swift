import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// The one way the embeddings plugin asks for vectors (PRODUCT §13, §11): the session's client
/// (key checked, transcript: live, recorded or replayed), the session's retry policy through the
/// library's one call path, `--dry-run` through ``DryRunTransport``, the call counted in
/// `show usage` and logged in `logs.db`.
enum EmbeddingCall {
    /// Embeds `texts` with `model` (`embedContent` for one text when `single`, else
    /// `batchEmbedContents` in requests of at most 100).
    /// - Returns: one vector per text, and the `--json` members `model`, `usage`, `retries`.
    /// - Throws: ``CommandFailure``; ``AskCommands/DryRun`` with the first request of a dry run.
    static func embed(
        _ texts: [String], model: String, options: GeminiEmbeddingOptions, single: Bool = false,
        command: String,
        dryRun: Bool, context: CommandContext, services: GeminiServices
    ) async throws -> (vectors: [[Float]], envelope: [JSONMember]) {
        let transport = dryRun ? DryRunTransport() : nil
        let client =
            try transport.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(context: context, services: services)
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let started = ContinuousClock.now
        let time = Date()
        services.retriesInFlight.reset()
        do {
            let embeddings: [GeminiEmbedding]
            if single, texts.count == 1 {
                embeddings = [
                    try await client.embedContent(
                        texts[0], model: GeminiModel(selection: model), options: options, retryPolicy: policy)
                ]
            } else {
                embeddings = try await client.batchEmbedContents(
                    texts, model: GeminiModel(selection: model), options: options, retryPolicy: policy)
            }
            let envelope = GeminiCall.finish(
                model: model, requested: model, usage: nil, retries: services.retriesInFlight.value,
                usedFallback: false, started: started, context: context)
            let dimensions = embeddings.first?.dimensions ?? 0
            log(
                command: command, model: model, texts: texts, time: time, started: started,
                answer:
                    "\(embeddings.count) vector\(embeddings.count == 1 ? "" : "s") of \(dimensions) dimensions",
                error: nil, context: context)
            return (embeddings.map(\.values), envelope)
        } catch let stopped as DryRunTransport.Stopped {
            guard let sent = transport?.request else { throw stopped }
            throw AskCommands.DryRun(text: DryRunTransport.rendered(sent))
        } catch let error as GeminiError {
            let failure = GeminiCall.failure(error, context: context)
            log(
                command: command, model: model, texts: texts, time: time, started: started, answer: nil,
                error: "\(failure.kind.rawValue): \(failure.message)", context: context)
            throw failure
        }
    }

    /// Logs one embedding exchange (docs/logs.md): the texts as the prompt (one per line), the
    /// vectors' count and dimension as the answer (the log never holds the vectors).
    private static func log(
        command: String, model: String, texts: [String], time: Date, started: ContinuousClock.Instant,
        answer: String?, error: String?, context: CommandContext
    ) {
        let elapsed = ContinuousClock.now - started
        let entry = LogEntry(
            time: time, command: command, conversationID: nil, model: model,
            prompt: texts.joined(separator: "\n"), answer: answer,
            durationMilliseconds: Int(
                elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000),
            error: error)
        ExchangeLog.write(entry, context: context)
    }
}
