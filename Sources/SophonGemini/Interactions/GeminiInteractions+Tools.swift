import SophonCore

extension GeminiInteractions {
    /// The function-calling loop of docs/library.md ("Tools") over the Interactions API: the
    /// same loop as generateContent's (the same server, limit, order and events), each round an
    /// interaction created from `request` and `conversation` (continued by id, or the whole
    /// history when the conversation does not store), answers sent back as `function_result`
    /// steps in call order. Calls `server` does not serve end the loop, left pending in
    /// `conversation`.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - conversation: the turns so far, ending with the user turn to answer.
    ///   - request: everything but the input: model, system instruction, tools, generation
    ///     config, response format; sent again every round (the API scopes them to one
    ///     interaction).
    ///   - server: answers the calls.
    ///   - maxToolRounds: interactions allowed; a reply with served calls in the last one
    ///     throws ``GeminiToolError/tooManyRounds(rounds:calls:)``.
    ///   - retryPolicy: overrides the configured policy for each request.
    ///   - onEvent: told before each request and after each reply, in order.
    /// - Returns: the last interaction, the summed usage and every call made.
    /// - Throws: ``GeminiToolError``, ``GeminiError``, or `CancellationError`.
    public func runTools(
        label: String, conversation: inout GeminiInteractionConversation, request: GeminiInteractionRequest,
        server: GeminiToolServer, maxToolRounds: Int = 10, retryPolicy: GeminiRetryPolicy? = nil,
        onEvent: (GeminiInteractionToolEvent) -> Void = { _ in }
    ) async throws -> GeminiInteractionToolRun {
        let loop = GeminiToolLoop<Result>(
            label: label, server: server, maxToolRounds: maxToolRounds,
            observer: client.configuration.observer)
        let outcome = try await loop.run(
            send: { round in
                onEvent(.sending(round: round))
                let result = try await create(
                    conversation.applied(to: request), label: label, retryPolicy: retryPolicy)
                conversation.record(result.interaction)
                return .init(
                    reply: result, pending: conversation.pendingCalls,
                    usage: result.interaction.usage?.metadata)
            },
            received: { round, reply, answering in
                onEvent(.received(round: round, result: reply.reply, answering: answering))
            },
            answer: { _, answers in try conversation.answer(answers) })
        return GeminiInteractionToolRun(
            interaction: outcome.last.reply.interaction, usage: outcome.usage, rounds: outcome.rounds,
            calls: outcome.calls, retryCount: outcome.last.reply.retryCount)
    }
}

/// What a tool loop over the Interactions API reports while it runs.
public enum GeminiInteractionToolEvent: Sendable {
    /// Round `round` (1-based: one interaction) is about to be created.
    case sending(round: Int)
    /// Round `round` was answered with `result`; `answering` tells whether its calls are
    /// answered next.
    case received(round: Int, result: GeminiInteractions.Result, answering: Bool)
}

/// What ``GeminiInteractions/runTools(label:conversation:request:server:maxToolRounds:retryPolicy:onEvent:)``
/// returns.
public struct GeminiInteractionToolRun: Sendable {
    /// The last interaction (its ``GeminiInteraction/outputText`` is the answer).
    public var interaction: GeminiInteraction
    /// Token counts summed over every round, under generateContent's names.
    public var usage: UsageMetadata
    /// Interactions made (one per round).
    public var rounds: Int
    /// Every function call the model made, in order.
    public var calls: [FunctionCall]
    /// Retries of the last round.
    public var retryCount: Int
}
