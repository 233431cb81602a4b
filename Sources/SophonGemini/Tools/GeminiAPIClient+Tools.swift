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
        let request = GenerateContentRequest(
            contents: [], systemInstruction: systemInstruction, tools: tools,
            toolConfig: toolConfig?.jsonValue, generationConfig: generationConfig)
        return try await runTools(
            label: label, conversation: &conversation, request: request,
            server: GeminiToolServer(handlers: handlers), model: model, maxToolRounds: maxToolRounds,
            retryPolicy: retryPolicy)
    }

    /// The one function-calling loop (docs/library.md, "Tools"): sends `request` with
    /// `conversation` as its contents, answers the calls of each answer through `server`, and
    /// repeats until an answer has no calls, or has a call `server` does not serve (those stay
    /// pending in `conversation` for the caller to answer).
    ///
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far, ending with the user turn to answer; the model's
    ///     answers and the function responses are appended to it.
    ///   - request: everything but the contents, the same for every round (system, tools,
    ///     settings); its `contents` are replaced by `conversation` each round.
    ///   - server: answers the calls.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - maxToolRounds: model requests allowed; an answer with served calls in the last one
    ///     throws ``GeminiToolError/tooManyRounds(rounds:calls:)`` (its calls stay pending).
    ///   - retryPolicy: overrides the configured policy for each model request.
    ///   - onEvent: told before each request and after each answer, in order.
    /// - Returns: the final answer, the summed usage and every call made.
    /// - Throws: ``GeminiToolError/tooManyRounds(rounds:calls:)``, ``GeminiError``, or
    ///   `CancellationError` (checked after the calls of a round are answered).
    public func runTools(
        label: String, conversation: inout GeminiConversation, request: GenerateContentRequest,
        server: GeminiToolServer, model: GeminiModel? = nil, maxToolRounds: Int = 10,
        retryPolicy: GeminiRetryPolicy? = nil, onEvent: (GeminiToolLoopEvent) -> Void = { _ in }
    ) async throws -> GeminiToolRun {
        var request = request
        let loop = GeminiToolLoop<GeminiResult<GenerateContentResponse>>(
            label: label, server: server, maxToolRounds: maxToolRounds, observer: configuration.observer)
        let outcome = try await loop.run(
            send: { round in
                request.contents = conversation.history
                let sent = request
                onEvent(.sending(round: round))
                let result = try await sendRequest(label: label, model: model, retryPolicy: retryPolicy) {
                    _ in
                    sent
                }
                conversation.appendModel(
                    result.response.candidates?.first?.content ?? Content(role: "model", parts: []))
                return .init(reply: result, pending: conversation.pendingCalls, usage: result.usage)
            },
            received: { round, reply, answering in
                onEvent(.received(round: round, result: reply.reply, answering: answering))
            },
            answer: { _, answers in try conversation.answer(answers) })
        let result = outcome.last.reply
        return GeminiToolRun(
            text: result.response.text, response: result.response, usage: outcome.usage,
            rounds: outcome.rounds,
            calls: outcome.calls, lastResult: result)
    }
}

extension UsageMetadata {
    /// Adds `other`'s counts to these (absent counts count as zero).
    public mutating func add(_ other: UsageMetadata?) {
        guard let other else { return }
        promptTokenCount = (promptTokenCount ?? 0) + (other.promptTokenCount ?? 0)
        candidatesTokenCount = (candidatesTokenCount ?? 0) + (other.candidatesTokenCount ?? 0)
        thoughtsTokenCount = (thoughtsTokenCount ?? 0) + (other.thoughtsTokenCount ?? 0)
        totalTokenCount = (totalTokenCount ?? 0) + (other.totalTokenCount ?? 0)
    }
}

extension GeminiAPIClient {
    /// Automatic function calling with the user turn given as text: the same loop as
    /// ``generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``
    /// with `prompt` as one text part.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far; the prompt, the answers and the function responses
    ///     are appended to it.
    ///   - prompt: the user's text.
    ///   - handlers: the functions the model may call.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - systemInstruction: an optional system instruction (a string literal is one).
    ///   - generationConfig: optional sampling settings.
    ///   - toolConfig: optional function calling settings.
    ///   - maxToolRounds: model requests allowed (default 10).
    ///   - retryPolicy: overrides the configured policy for each model request.
    /// - Returns: the final answer, the summed usage and every call made.
    /// - Throws: as the parts form.
    public func generateWithTools(
        label: String, conversation: inout GeminiConversation, prompt: String,
        handlers: [GeminiFunctionHandler], model: GeminiModel? = nil, systemInstruction: Content? = nil,
        generationConfig: GenerationConfig? = nil, toolConfig: ToolConfig? = nil, maxToolRounds: Int = 10,
        retryPolicy: GeminiRetryPolicy? = nil
    ) async throws -> GeminiToolRun {
        try await generateWithTools(
            label: label, conversation: &conversation, prompt: [.text(prompt)], handlers: handlers,
            model: model,
            systemInstruction: systemInstruction, generationConfig: generationConfig, toolConfig: toolConfig,
            maxToolRounds: maxToolRounds, retryPolicy: retryPolicy)
    }
}
