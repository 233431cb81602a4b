/// The `status` of an Interaction (gemini-wire-format-3.md §1.9): an open set, so a value this
/// client does not know yet still decodes (``rawValue`` keeps it).
public struct GeminiInteractionStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value, e.g. `in_progress`.
    public var rawValue: String

    /// A status from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `in_progress`: the model or agent is still working.
    public static let inProgress = GeminiInteractionStatus(rawValue: "in_progress")
    /// `queued`: accepted, not started.
    public static let queued = GeminiInteractionStatus(rawValue: "queued")
    /// `requires_action`: client-side function calls wait for their `function_result` steps.
    public static let requiresAction = GeminiInteractionStatus(rawValue: "requires_action")
    /// `completed`.
    public static let completed = GeminiInteractionStatus(rawValue: "completed")
    /// `failed`: see the interaction's `errors`.
    public static let failed = GeminiInteractionStatus(rawValue: "failed")
    /// `cancelled` (by a cancel request).
    public static let cancelled = GeminiInteractionStatus(rawValue: "cancelled")
    /// `incomplete`: stopped early (e.g. the output limit).
    public static let incomplete = GeminiInteractionStatus(rawValue: "incomplete")
    /// `budget_exceeded`: an agent ran out of its budget.
    public static let budgetExceeded = GeminiInteractionStatus(rawValue: "budget_exceeded")

    /// Whether polling ends here (PRODUCT §15): `completed`, `failed`, `cancelled`,
    /// `incomplete`, `budget_exceeded`, and `requires_action` (the calls go back to the caller).
    public var endsPolling: Bool {
        [.completed, .failed, .cancelled, .incomplete, .budgetExceeded, .requiresAction].contains(self)
    }

    /// The wire value.
    public var description: String { rawValue }
}
