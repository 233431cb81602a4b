import SophonCore

/// A conversation over the Interactions API (docs/interactions.md): continued on the server
/// by `previous_interaction_id` (``store`` true), or, with ``store`` false, by sending the
/// whole history each turn, every step exactly as received (thought signatures included).
/// Both ways it keeps the history, so a conversation whose stored id the server lost can go
/// on statelessly (``forgetStoredInteraction()``).
///
/// A function call is pending while no `function_result` with its id was added; a user turn
/// then is refused locally with ``GeminiToolError/unansweredCalls(_:)``.
public struct GeminiInteractionConversation: Sendable, Hashable {
    /// Whether the server keeps the turns (`store`): true continues by id.
    public var store: Bool
    /// The id of the last interaction, continued by the next turn when ``store`` is true.
    public private(set) var lastInteractionID: String?
    /// Every step sent and received, oldest first.
    public private(set) var history: [GeminiInteractionStep]
    /// How many steps of ``history`` the server already has (sent, or received from it).
    private var sentCount: Int

    /// A conversation, empty or from a history (trusted as is, counted as already sent).
    /// - Parameters:
    ///   - store: whether turns continue by id (`store` true) or re-send the history.
    ///   - history: earlier steps.
    ///   - lastInteractionID: the interaction to continue, when the server has it.
    public init(store: Bool = true, history: [GeminiInteractionStep] = [], lastInteractionID: String? = nil) {
        self.store = store
        self.history = history
        self.lastInteractionID = lastInteractionID
        sentCount = history.count
    }

    /// The function calls without a `function_result` yet, in call order.
    public var pendingCalls: [FunctionCall] {
        var answered = Set<String>()
        for step in history {
            if case .functionResult(let callID, _, _, _) = step.kind { answered.insert(callID) }
        }
        return history.compactMap { step in
            guard case .functionCall(let call) = step.kind, !answered.contains(call.id ?? "") else {
                return nil
            }
            return call
        }
    }

    /// Appends a user turn.
    /// - Throws: ``GeminiToolError/unansweredCalls(_:)`` while calls are pending.
    public mutating func appendUser(_ content: [GeminiInteractionContent]) throws(GeminiToolError) {
        let pending = pendingCalls
        guard pending.isEmpty else { throw .unansweredCalls(pending) }
        history.append(.userInput(content))
    }

    /// Records a reply: its id becomes the one to continue, its steps join the history (a
    /// step repeating an earlier turn's call or result, by id, is not added twice).
    public mutating func record(_ interaction: GeminiInteraction) {
        var calls = Set<String>()
        var results = Set<String>()
        for step in history {
            switch step.kind {
            case .functionCall(let call): calls.insert(call.id ?? "")
            case .functionResult(let callID, _, _, _): results.insert(callID)
            default: break
            }
        }
        for step in interaction.steps where step.type != "user_input" {
            switch step.kind {
            case .functionCall(let call) where call.id != nil && calls.contains(call.id ?? ""): continue
            case .functionResult(let callID, _, _, _) where results.contains(callID): continue
            default: history.append(step)
            }
        }
        if !interaction.id.isEmpty { lastInteractionID = interaction.id }
        sentCount = history.count
    }

    /// Answers every pending call: `responses[i]` answers call `i`, as a `function_result`
    /// step with the call's id and name (docs/interactions.md: in call order).
    /// - Throws: ``GeminiToolError/answerCountMismatch(expected:given:)`` unless there is
    ///   exactly one response per pending call.
    public mutating func answer(_ responses: [JSONValue]) throws(GeminiToolError) {
        let calls = pendingCalls
        guard !calls.isEmpty, calls.count == responses.count else {
            throw .answerCountMismatch(expected: calls.count, given: responses.count)
        }
        for (call, response) in zip(calls, responses) {
            history.append(
                .functionResult(
                    callID: call.id ?? "", name: call.name, result: response,
                    isError: response["error"] != nil
                        && {
                            if case .object(let members) = response { return members.count == 1 }
                            return false
                        }()))
        }
    }

    /// Goes on without the stored interaction (expired, deleted, or `store` turned off): the
    /// next turn sends the whole history.
    public mutating func forgetStoredInteraction() {
        lastInteractionID = nil
        sentCount = 0
    }

    /// `request` carrying this conversation's next turn. Continuing by id: the steps the
    /// server has not seen as `input` (one plain-text user turn as a string) and
    /// `previous_interaction_id`; else every step, with `store` false when ``store`` is.
    public func applied(to request: GeminiInteractionRequest) -> GeminiInteractionRequest {
        var request = request
        if store, let id = lastInteractionID {
            request.previousInteractionID = id
            request.input = Self.input(Array(history[sentCount...]))
        } else {
            request.previousInteractionID = nil
            request.input = sentCount == 0 && history.count == 1 ? Self.input(history) : .steps(history)
        }
        if !store { request.store = false }
        return request
    }

    /// Steps as input: a single user turn as its text (or its content blocks), else steps.
    private static func input(_ steps: [GeminiInteractionStep]) -> GeminiInteractionInput {
        guard steps.count == 1, case .userInput(let content) = steps[0].kind else { return .steps(steps) }
        if content.count == 1, let text = content[0].text { return .text(text) }
        return .content(content)
    }
}
