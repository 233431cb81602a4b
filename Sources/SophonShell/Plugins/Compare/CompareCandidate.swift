import SophonCore
import SophonGemini

/// One column of a `compare`: a model, and the turn it is asked (the same for every model
/// with `--models`; a prompt file's rendering with `--prompts`).
struct CompareCandidate: Sendable {
    /// The model asked.
    var model: GeminiModel
    /// The prompt file, with `--prompts`.
    var promptFile: String?
    /// The turns sent, the user's last.
    var contents: [Content]
    /// The answer schema: the session's, or the prompt file's `output.schema`.
    var schema: GeminiSchema?
    /// A prompt file's system, config and functions.
    var overrides = TurnOverrides()

    /// The block's heading: the model, or `FILE (MODEL)` with `--prompts`.
    var label: String {
        promptFile.map { "\($0) (\(model.id))" } ?? model.id
    }
}

/// What one candidate answered, or why it did not.
struct CompareOutcome: Sendable {
    /// The candidate asked.
    var candidate: CompareCandidate
    /// The model that answered (as the reply says).
    var modelID: String
    /// The answer: the JSON value of a structured answer that fits the schema, else the text.
    var answer: JSONValue?
    /// The reply's token counts.
    var usage: UsageMetadata?
    /// What the exchange cost in US dollars; `nil` when the model has no price.
    var cost: Double?
    /// From the request to the answer.
    var latency: Duration = .zero
    /// Whether the answer fits the schema (`nil` without a schema), and the first problem when not.
    var schemaCheck: (valid: Bool, problem: String?)?
    /// Why the model gave no answer.
    var failure: CommandFailure?
    /// The retries made.
    var retries = 0
    /// The request sent (for `--html`); `nil` when it could not be built.
    var request: GenerateContentRequest?
    /// What came after the candidate's contents, in order: each model turn, and after a turn of
    /// served calls, the user turn of their responses (one model turn without tools).
    var turns: [Content] = []

    /// Whether the answer is structured (an object or an array that fits the schema).
    var structuredAnswer: JSONValue? {
        guard schemaCheck?.valid == true, let answer else { return nil }
        return answer
    }
}
