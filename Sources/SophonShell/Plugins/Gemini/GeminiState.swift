import SophonGemini

/// The Gemini part of a session: the conversation, pending attachments, the retry policy in
/// force and the token totals (`show usage`).
struct GeminiState: Sendable {
    /// `chat` turns, oldest first (user and model contents alternate).
    var conversation: [Content] = []
    /// Media parts for the next `ask` or `chat` (`attach`), sent before the prompt.
    var attachments: [Part] = []
    /// Names of the attached files, for messages.
    var attachmentNames: [String] = []
    /// The policy calls use (`retry-policy`).
    var retryPolicy: GeminiRetryPolicy = .default
    /// The model a 404 falls back to (`retry-policy fallback=MODEL`).
    var fallbackModel = GeminiModel.shellFallbackModelID
    /// Token totals over the session's calls.
    var usage = UsageTotals()
    /// Calls made.
    var calls = 0
}

/// Token counts summed over calls.
struct UsageTotals: Sendable, Equatable {
    var promptTokens = 0
    var outputTokens = 0
    var thoughtsTokens = 0
    var totalTokens = 0

    /// Adds one call's usage (absent counts are zero: the API omits them).
    mutating func add(_ usage: UsageMetadata?) {
        guard let usage else { return }
        promptTokens += usage.promptTokenCount ?? 0
        outputTokens += usage.candidatesTokenCount ?? 0
        thoughtsTokens += usage.thoughtsTokenCount ?? 0
        totalTokens += usage.totalTokenCount ?? 0
    }
}
