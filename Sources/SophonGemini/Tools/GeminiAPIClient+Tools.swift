import SophonCore

extension GeminiAPIClient {
    /// Automatic function calling (docs/library.md, "Tools"): sends `prompt` in `conversation`
    /// with the handlers' declarations, runs the handlers for the calls the model returns (the
    /// calls of one answer concurrently), sends their responses, and repeats until an answer has
    /// no calls.
    ///
    /// Each call's arguments are checked against its declaration first; a violation, an unknown
    /// function or a handler's thrown error goes back to the model as `{"error": MESSAGE}` (it
    /// may recover), not to the caller. `conversation` ends holding every turn, exactly as the
    /// API accepts it.
    ///
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far; `prompt`, the model's answers and the function
    ///     responses are appended to it.
    ///   - prompt: the user turn's parts.
    ///   - handlers: the functions the model may call; their declarations are sent as the
    ///     request's `tools` (none when empty).
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction, sent with every request.
    ///   - generationConfig: optional sampling settings, sent with every request.
    ///   - toolConfig: optional function calling settings (`toolConfig`), sent with every request.
    ///   - maxToolRounds: model requests allowed (default 10); an answer with calls in the last
    ///     one throws ``GeminiToolError/tooManyRounds(rounds:calls:)`` (its calls stay pending
    ///     in `conversation`).
    ///   - retryPolicy: overrides the configured policy for each model request.
    /// - Each round (one model request and the calls it returned) is reported to the
    ///   configuration's `observer` as ``GeminiClientEvent/toolRound(label:round:calls:usage:)``.
    /// - Throws: ``GeminiToolError`` (`unansweredCalls` when `conversation` has pending calls,
    ///   `tooManyRounds`), ``GeminiError`` (including `toolCallFailed` for
    ///   `MALFORMED_FUNCTION_CALL` and the other tool finish reasons, never retried), or
    ///   `CancellationError`.
    public func generateWithTools(
        label: String, conversation: inout GeminiConversation, prompt: [Part],
        handlers: [GeminiFunctionHandler],
        model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil,
        toolConfig: ToolConfig? = nil, maxToolRounds: Int = 10, retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiToolRun {
        try conversation.appendUser(prompt)
        let tools: JSONValue? =
            handlers.isEmpty
            ? nil : .array([Tool(functionDeclarations: handlers.map(\.declaration)).jsonValue])
        var usage = UsageMetadata(
            promptTokenCount: 0, candidatesTokenCount: 0, thoughtsTokenCount: 0, totalTokenCount: 0)
        var rounds = 0
        var calls: [FunctionCall] = []
        while true {
            rounds += 1
            let request = GenerateContentRequest(
                contents: conversation.history, systemInstruction: systemInstruction, tools: tools,
                toolConfig: toolConfig?.jsonValue, generationConfig: generationConfig)
            let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) { _ in
                request
            }
            Self.add(result.usage, to: &usage)
            conversation.appendModel(
                result.response.candidates?.first?.content ?? Content(role: "model", parts: []))
            let pending = conversation.pendingCalls
            configuration.observer?(
                .toolRound(label: label, round: rounds, calls: pending, usage: result.usage))
            guard !pending.isEmpty else {
                return GeminiToolRun(
                    text: result.response.text, response: result.response, usage: usage, rounds: rounds,
                    calls: calls)
            }
            calls += pending
            guard rounds < maxToolRounds else {
                throw GeminiToolError.tooManyRounds(rounds: rounds, calls: calls)
            }
            let responses = await withTaskGroup(of: (Int, JSONValue).self) { group in
                for (index, call) in pending.enumerated() {
                    group.addTask { (index, await Self.serve(call, handlers: handlers)) }
                }
                var answers = [JSONValue](repeating: .null, count: pending.count)
                for await (index, answer) in group { answers[index] = answer }
                return answers
            }
            try conversation.answer(responses)
        }
    }

    /// One call's response: the handler's result, or `{"error": MESSAGE}` for an unknown
    /// function, arguments that break the declaration (the handler is not called), or a thrown
    /// error.
    static func serve(_ call: FunctionCall, handlers: [GeminiFunctionHandler]) async -> JSONValue {
        func failure(_ message: String) -> JSONValue { .object([JSONMember("error", .string(message))]) }
        guard let handler = handlers.first(where: { $0.declaration.name == call.name }) else {
            return failure("no function named '\(call.name)' is declared")
        }
        let arguments = call.args ?? .object([])
        let violations = handler.declaration.violations(of: arguments)
        guard violations.isEmpty else {
            return failure("invalid arguments: " + violations.joined(separator: "; "))
        }
        do {
            return try await handler.run(arguments)
        } catch {
            return failure("\(error)")
        }
    }

    private static func add(_ usage: UsageMetadata?, to total: inout UsageMetadata) {
        guard let usage else { return }
        total.promptTokenCount = (total.promptTokenCount ?? 0) + (usage.promptTokenCount ?? 0)
        total.candidatesTokenCount = (total.candidatesTokenCount ?? 0) + (usage.candidatesTokenCount ?? 0)
        total.thoughtsTokenCount = (total.thoughtsTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0)
        total.totalTokenCount = (total.totalTokenCount ?? 0) + (usage.totalTokenCount ?? 0)
    }
}
