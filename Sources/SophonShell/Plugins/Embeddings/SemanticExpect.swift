import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// `expect VALUE similar "TEXT" [THRESHOLD]` and `expect VALUE judge "RUBRIC" [THRESHOLD]`
/// (docs/embeddings.md). The words after the operator are the text (joined by one
/// space); a last word that is a number, after at least one other, is the threshold. A threshold
/// outside 0...1 and an empty rubric are usage errors: nothing is sent.
enum SemanticExpect {
    /// The threshold of `similar` when none is given.
    static let similarThreshold = 0.8
    /// The threshold of `judge` when none is given.
    static let judgeThreshold = 0.5

    /// The judge's response schema: `{pass: boolean, score: number (0..1), reason: string}`.
    static let judgeSchema = GeminiSchema.object(
        properties: [
            "pass": .boolean(), "score": .number(minimum: 0, maximum: 1), "reason": .string(),
        ], required: ["pass", "score", "reason"])

    static func evaluate(
        _ op: String, left: ExpectOperand, right: [String], context: CommandContext, services: GeminiServices,
        plugin: EmbeddingsPlugin
    ) async throws -> ExpectOutcome {
        var words = right
        var threshold = op == "judge" ? judgeThreshold : similarThreshold
        var thresholdText = op == "judge" ? "0.5" : "0.8"
        if words.count >= 2, let last = words.last, JSONNumber.isValidSyntax(last), let value = Double(last) {
            guard (0...1).contains(value) else {
                throw CommandFailure(kind: .usage, message: EmbeddingsMessages.thresholdOutOfRange(op, last))
            }
            threshold = value
            thresholdText = last
            words.removeLast()
        }
        let text = words.joined(separator: " ")
        if context.session.geminiSettings.dryRun {
            // An expectation needs the answer, which a dry run does not get: nothing is sent.
            throw CommandFailure(
                kind: .usage, message: "\(op): nothing sent: dry-run is on (set dry-run off to send)")
        }
        if op == "judge" {
            // A grader without a rubric has nothing to judge by: refused, nothing sent.
            guard !text.allSatisfy(\.isWhitespace) else {
                throw CommandFailure(kind: .usage, message: EmbeddingsMessages.emptyRubric)
            }
            return try await judge(
                left, rubric: text, threshold: threshold, thresholdText: thresholdText, context: context,
                services: services)
        }
        return try await similar(
            left, text, threshold: threshold, thresholdText: thresholdText, context: context,
            services: services)
    }

    /// The cosine of the two texts' embeddings (`embed-model`, task SEMANTIC_SIMILARITY, one
    /// request); holds when it is at least the threshold.
    private static func similar(
        _ left: ExpectOperand, _ text: String, threshold: Double, thresholdText: String,
        context: CommandContext,
        services: GeminiServices
    ) async throws -> ExpectOutcome {
        for (side, value) in [("left", left.text), ("right", text)] where value.allSatisfy(\.isWhitespace) {
            return .failed(message: "similar: the \(side) text is empty")
        }
        let (vectors, _) = try await EmbeddingCall.embed(
            [left.text, text], model: EmbeddingsPlugin.embedModel(context),
            options: GeminiEmbeddingOptions(taskType: .semanticSimilarity), command: "expect", dryRun: false,
            context: context, services: services)
        guard let score = GeminiEmbedding.cosineSimilarity(vectors[0], vectors[1]).map(Double.init) else {
            return .failed(message: "similar: an embedding is all zeros")
        }
        let rounded = (score * 100).rounded() / 100
        if rounded >= threshold || score >= threshold { return .passed }
        return .failed(
            message: EmbeddingsMessages.similarFailed(
                left: left.display, right: ExpectOperand.text(text).display, score: score,
                threshold: thresholdText))
    }

    /// One call to `judge-model` with the grader instruction, temperature 0 and
    /// ``judgeSchema``; holds when `pass` and `score` >= the threshold. A reply that does not
    /// fit the schema fails the expectation with why (never passes by default).
    private static func judge(
        _ left: ExpectOperand, rubric: String, threshold: Double, thresholdText: String,
        context: CommandContext,
        services: GeminiServices
    ) async throws -> ExpectOutcome {
        let client = try GeminiCall.client(command: "judge", context: context, services: services)
        let modelID = EmbeddingsPlugin.judgeModel(context)
        let model = GeminiModel(selection: modelID)
        let prompt = EmbeddingsMessages.graderPrompt(rubric: rubric, output: left.text)
        let request = try GeminiCall.request(
            contents: [Content(role: "user", parts: [.text(prompt)])], tools: nil, toolConfig: nil,
            model: model,
            schema: judgeSchema,
            overrides: TurnOverrides(
                system: Content(role: nil, parts: [.text(EmbeddingsMessages.graderInstruction)]),
                generation: GenerationConfig(temperature: 0)),
            context: context)
        let policy = context.session.withGeminiState { $0.retryPolicy }
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        var entry = LogEntry(
            time: Date(), command: "judge", model: model.id, prompt: prompt,
            systemInstruction: EmbeddingsMessages.graderInstruction,
            schema: judgeSchema.jsonValue.compactText,
            settings: #"{"temperature":0}"#)
        defer {
            entry.durationMilliseconds = (ContinuousClock.now - started).wholeMilliseconds
            ExchangeLog.write(entry, context: context)
        }
        let value: JSONValue
        do {
            let result = try await client.generateJSON(
                label: "judge", request: request, schema: judgeSchema, model: model, retryPolicy: policy)
            let envelope = GeminiCall.finish(
                model: result.modelID, requested: model.id, usage: result.usage, retries: result.retryCount,
                usedFallback: result.usedFallback, started: started, context: context)
            entry.cost = GeminiCall.cost(in: envelope)
            value = result.value
            entry.model = result.modelID
            entry.answer = value.compactText
            entry.count(result.usage)
        } catch let error as GeminiError {
            let failure = GeminiCall.failure(error, context: context)
            entry.error = "\(failure.kind.rawValue): \(failure.message)"
            if case .decodingFailed(let reason, _) = error {
                // The judge answered (a call made, counted), but not in the schema's shape.
                // Its tokens are not known: the cost is unknown, never 0 (docs/cost.md).
                _ = GeminiCall.finish(
                    model: model.id, requested: model.id, usage: nil, counted: false,
                    retries: services.retriesInFlight.value,
                    usedFallback: false, started: started, context: context)
                return .failed(message: EmbeddingsMessages.judgeUnfit(reason))
            }
            throw failure
        }
        guard case .bool(let pass)? = value["pass"], let score = value["score"]?.doubleValue,
            (0...1).contains(score), case .string(let reason)? = value["reason"]
        else {
            return .failed(message: EmbeddingsMessages.judgeUnfit(value.compactText))
        }
        if pass, score >= threshold { return .passed }
        return .failed(
            message: EmbeddingsMessages.judgeFailed(
                left: left.display, rubric: ExpectOperand.text(rubric).display, pass: pass, score: score,
                threshold: thresholdText, reason: reason))
    }
}
