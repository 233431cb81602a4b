import SophonGemini

/// What the session's last `ask`, `chat` or `prompt` turn was sent with besides its contents
/// (``GeminiSessionState/lastTurn``): the model asked for, the session's settings, schema and
/// declared functions then, and the turn's own overrides (a prompt file's system message,
/// `config`, `output` and `toolDefs`). `prompt save` writes the file from these, so that the
/// file sends that request again (docs/prompts.md), whatever the session set since.
struct LastTurnSettings: Sendable {
    /// The model as selected (`--model`, a prompt file's `model` without its prefix, else `set
    /// model`).
    var model: String
    /// The session's settings when the turn was sent.
    var settings: GeminiSettings
    /// The schema the answer was asked for in (a prompt file's `output.schema`, else the
    /// session's); `nil` under `--no-schema` or without one.
    var schema: GeminiSchema?
    /// The functions the session declared (`tool NAME ...`).
    var functions: [FunctionDeclaration]
    /// The turn's own system message, generation config and functions.
    var overrides: TurnOverrides

    /// The system instruction the turn sent: the turn's own, else the session's.
    var system: Content? { overrides.system ?? GeminiCall.systemInstruction(settings) }

    /// The generation config the turn sent, before it was fitted to the model.
    var generation: GenerationConfig? { overrides.applied(to: GeminiCall.generationConfig(settings)) }

    /// The functions the turn declared: the session's, then the turn's own.
    var declarations: [FunctionDeclaration] { functions + overrides.functions }
}
