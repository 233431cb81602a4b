import SophonCore

/// The one function-calling loop (docs/library.md, "Tools"), whatever API carries the rounds:
/// generateContent (``GeminiAPIClient/runTools(label:conversation:request:server:model:maxToolRounds:retryPolicy:onEvent:)``)
/// and the Interactions API (``GeminiInteractions/runTools(label:conversation:request:server:maxToolRounds:retryPolicy:onEvent:)``)
/// supply how one round is sent and how answers go back; the loop owns the rest: rounds,
/// which calls are served, the round limit, the order of answers, the observer's
/// `toolRound` events, cancellation.
struct GeminiToolLoop<Reply: Sendable> {
    /// One round's reply, as the loop needs it.
    struct Round: Sendable {
        /// The reply.
        var reply: Reply
        /// Its function calls without answers, in call order.
        var pending: [FunctionCall]
        /// Its usage, when it had one.
        var usage: UsageMetadata?
    }

    /// What the loop ends with: the final round, the rounds made, every call answered or
    /// left pending, and the usage summed over the rounds.
    struct Outcome: Sendable {
        var last: Round
        var rounds: Int
        var calls: [FunctionCall]
        var usage: UsageMetadata
    }

    var label: String
    var server: GeminiToolServer
    var maxToolRounds: Int
    var observer: (@Sendable (GeminiClientEvent) -> Void)?

    /// Runs the loop: `send(round)` makes a request and returns its reply, `received` is told
    /// whether its calls are answered next, and `answer` records the answers (one per pending
    /// call, in call order) before the next round.
    /// - Throws: ``GeminiToolError/tooManyRounds(rounds:calls:)``, what `send` and `answer`
    ///   throw, or `CancellationError` (checked after the calls of a round are answered).
    func run(
        send: (_ round: Int) async throws -> Round,
        received: (_ round: Int, _ reply: Round, _ answering: Bool) -> Void = { _, _, _ in },
        answer: (_ calls: [FunctionCall], _ answers: [JSONValue]) throws -> Void
    ) async throws -> Outcome {
        var usage = UsageMetadata(
            promptTokenCount: 0, candidatesTokenCount: 0, thoughtsTokenCount: 0, totalTokenCount: 0)
        var rounds = 0
        var calls: [FunctionCall] = []
        while true {
            rounds += 1
            let round = try await send(rounds)
            usage.add(round.usage)
            observer?(.toolRound(label: label, round: rounds, calls: round.pending, usage: round.usage))
            let answering = !round.pending.isEmpty && round.pending.allSatisfy { server.serves($0.name) }
            received(rounds, round, answering)
            guard answering else {
                return Outcome(last: round, rounds: rounds, calls: calls + round.pending, usage: usage)
            }
            calls += round.pending
            guard rounds < maxToolRounds else {
                throw GeminiToolError.tooManyRounds(rounds: rounds, calls: calls)
            }
            try answer(round.pending, await Self.answer(round.pending, server: server))
            try Task.checkCancellation()
        }
    }

    /// The responses to `calls` in call order, answered one at a time or concurrently.
    private static func answer(_ calls: [FunctionCall], server: GeminiToolServer) async -> [JSONValue] {
        if server.oneAtATime {
            var answers: [JSONValue] = []
            for call in calls { answers.append(await server.answer(call)) }
            return answers
        }
        return await withTaskGroup(of: (Int, JSONValue).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, await server.answer(call)) }
            }
            var answers = [JSONValue](repeating: .null, count: calls.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers
        }
    }
}

/// What ``GeminiAPIClient/generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``
/// returns: the final answer, and what the loop did to get it.
public struct GeminiToolRun: Sendable {
    /// The final answer text (thought parts excluded).
    public var text: String
    /// The last reply.
    public var response: GenerateContentResponse
    /// Token counts summed over every round (absent counts count as zero).
    public var usage: UsageMetadata
    /// Model requests made (one per round).
    public var rounds: Int
    /// Every function call the model made, in order.
    public var calls: [FunctionCall]
    /// The last round's result: the model that answered, its usage, retries and fallback.
    public var lastResult: GeminiResult<GenerateContentResponse>
}

/// Why a tool-using conversation or loop stopped (docs/library.md, "Tools").
public enum GeminiToolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A user turn was refused: the last model turn has calls without answers (the API would
    /// reject the history with a 400). Carries the unanswered calls, in call order.
    case unansweredCalls([FunctionCall])
    /// The answers do not match the pending calls: `expected` calls, `given` answers.
    case answerCountMismatch(expected: Int, given: Int)
    /// `maxToolRounds` model requests were made and the model still asked for calls. Carries
    /// every call of the loop, in order, and the rounds made.
    case tooManyRounds(rounds: Int, calls: [FunctionCall])

    /// A readable description naming the calls.
    public var description: String {
        switch self {
        case .unansweredCalls(let calls):
            "function calls are unanswered: \(calls.map(\.name).joined(separator: ", "))"
        case .answerCountMismatch(let expected, let given):
            "\(given) answers for \(expected) pending function calls"
        case .tooManyRounds(let rounds, let calls):
            "the model still asked for function calls after \(rounds) rounds (\(calls.count) calls in all)"
        }
    }
}
