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
