import SophonCore
import SophonGemini

/// The Gemini plugin's part of a session: the schema, the conversation, pending attachments,
/// the retry policy in force and the token totals (`show usage`).
struct GeminiSessionState: PluginSessionState {
    /// `set model`, `set temperature`, ...: the plugin's rows of the settings table.
    var settings = GeminiSettings()
    /// The schema structured calls use and `validate` checks against (`schema SPEC`).
    var schema: GeminiSchema?
    /// `chat` turns, oldest first (user and model contents alternate).
    var conversation: [Content] = []
    /// The contents of the last `ask`, `chat` or `prompt` turn as sent (history, then the user
    /// turn): what `prompt save` writes.
    var lastTurn: [Content] = []
    /// What the last turn was sent with besides its contents (its model, settings, schema,
    /// functions and a prompt file's overrides): what `prompt save` writes with ``lastTurn``.
    var lastTurnSettings: LastTurnSettings?
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
    /// What the calls cost, per model (`show usage`, `set budget`; docs/cost.md).
    var spending = CostLedger()
    /// `set budget AMOUNT`: US dollars a run may spend in this session; `nil` for none.
    var budget: Double?

    /// External plugins see the model, and the schema (as Gemini Schema JSON) when one is set.
    var sessionViewMembers: [JSONMember] {
        [JSONMember("model", .string(settings.model))]
            + (schema.map { [JSONMember("schema", $0.jsonValue)] } ?? [])
    }
}

extension ShellSession {
    /// Runs `body` with exclusive access to the Gemini plugin's state in this session.
    func withGeminiState<Result>(_ body: (inout GeminiSessionState) throws -> Result) rethrows -> Result {
        try withPluginState(GeminiSessionState.self, body)
    }

    /// The Gemini plugin's settings in force (`model`, `temperature`, ...).
    var geminiSettings: GeminiSettings { withGeminiState { $0.settings } }
}

/// Token counts summed over calls.
struct UsageTotals: Sendable, Equatable {
    var promptTokens = 0
    var outputTokens = 0
    var thoughtsTokens = 0
    var totalTokens = 0
    /// Prompt tokens served from a context cache (part of ``promptTokens``).
    var cachedTokens = 0

    /// Adds one call's usage (absent counts are zero: the API omits them).
    mutating func add(_ usage: UsageMetadata?) {
        guard let usage else { return }
        promptTokens += usage.promptTokenCount ?? 0
        outputTokens += usage.candidatesTokenCount ?? 0
        thoughtsTokens += usage.thoughtsTokenCount ?? 0
        totalTokens += usage.totalTokenCount ?? 0
        cachedTokens += usage.cachedContentTokenCount ?? 0
    }
}
