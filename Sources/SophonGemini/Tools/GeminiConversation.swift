import SophonCore

/// A conversation kept exactly as the API accepts it (docs/library.md, "Tools"): each model
/// turn as returned (all parts, thought signatures and unknown parts included), the answers to
/// its function calls as the next user turn (one `functionResponse` per call, in call order,
/// with the call's `id` when it had one).
///
/// A user turn while calls are unanswered is refused locally with
/// ``GeminiToolError/unansweredCalls(_:)``: the client never sends a history the API rejects.
public struct GeminiConversation: Sendable, Hashable {
    /// The contents, oldest first.
    public private(set) var history: [Content]

    /// Creates a conversation from an existing history (trusted as is).
    public init(history: [Content] = []) { self.history = history }

    /// The function calls of the last model turn when it has not been answered yet, in call
    /// order; empty otherwise.
    public var pendingCalls: [FunctionCall] {
        guard let last = history.last, last.role == "model" else { return [] }
        return (last.parts ?? []).compactMap(\.functionCall)
    }

    /// Appends a user turn.
    /// - Throws: ``GeminiToolError/unansweredCalls(_:)`` while calls are pending.
    public mutating func appendUser(_ parts: [Part]) throws(GeminiToolError) {
        let pending = pendingCalls
        guard pending.isEmpty else { throw .unansweredCalls(pending) }
        history.append(Content(role: "user", parts: parts))
    }

    /// Appends the model's turn exactly as received (a content without parts is stored as an
    /// empty-text part, since the API refuses empty `parts`).
    public mutating func appendModel(_ content: Content) {
        var turn = content
        turn.role = "model"
        if (turn.parts ?? []).isEmpty { turn.parts = [.text("")] }
        history.append(turn)
    }

    /// Answers every pending call: `responses[i]` answers call `i`; a non-object response is
    /// sent as `{"result": VALUE}`.
    /// - Throws: ``GeminiToolError/answerCountMismatch(expected:given:)`` unless there is
    ///   exactly one response per pending call.
    public mutating func answer(_ responses: [JSONValue]) throws(GeminiToolError) {
        let calls = pendingCalls
        guard !calls.isEmpty, calls.count == responses.count else {
            throw .answerCountMismatch(expected: calls.count, given: responses.count)
        }
        let parts = zip(calls, responses).map { call, response in
            let object: JSONValue
            if case .object = response {
                object = response
            } else {
                object = .object([JSONMember("result", response)])
            }
            return Part(functionResponse: FunctionResponse(id: call.id, name: call.name, response: object))
        }
        history.append(Content(role: "user", parts: parts))
    }
}
