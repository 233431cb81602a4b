import SophonCore
import SophonGemini

/// The one turn builder (docs/commands.md, "Settings"; docs/running-many-prompts.md): every
/// request a prompt becomes under the session's settings, for `ask`, `chat`, `tokens`, each
/// round of a tool exchange, and every `prompt` line of `run` and `batch`.
extension GeminiCall {
    /// The session's tools as a request carries them: the declared functions and built-ins, and,
    /// when `servedToo`, the functions of external plugins and running MCP servers (what a tool
    /// exchange sends), with `toolConfig` when `tool-mode` is set.
    /// `functions` (a prompt file's `toolDefs`) are declared after the session's.
    static func sessionTools(
        servedToo: Bool, functions: [FunctionDeclaration] = [], context: CommandContext,
        services: GeminiServices? = nil
    ) -> (tools: JSONValue?, toolConfig: JSONValue?) {
        var state = context.session.withToolState { $0 }
        state.declarations += functions
        if servedToo { state.declarations += ServedTools(context: context, services: services).declarations }
        return (state.toolsValue, state.toolConfigValue)
    }

    /// A request of `contents` with the session's system instruction, safety settings and
    /// generation settings, and `tools` / `toolConfig`, fitted to `model` (notes on stderr),
    /// asking for JSON of `schema` when one is given; `overrides` (a prompt file's system and
    /// config) win over the session's.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take a setting.
    static func request(
        contents: [Content], tools: JSONValue?, toolConfig: JSONValue?, model: GeminiModel,
        schema: GeminiSchema? = nil, overrides: TurnOverrides = TurnOverrides(), context: CommandContext
    ) throws -> GenerateContentRequest {
        let settings = context.session.geminiSettings
        var request = GenerateContentRequest(
            contents: contents, systemInstruction: overrides.system ?? systemInstruction(settings),
            tools: tools, toolConfig: toolConfig, safetySettings: safetySettings(settings),
            generationConfig: overrides.applied(to: generationConfig(settings)))
        try fitThinking(&request, model: model, context: context)
        try fitGeneration(&request, model: model, context: context)
        request = try DeploymentSettings.apply(to: request, model: model, context: context)
        return request.answering(schema: schema)
    }
}

/// Per-call settings that win over the session's (`prompt FILE`: the file's system message,
/// `config` and `toolDefs`).
struct TurnOverrides: Sendable {
    /// The system instruction.
    var system: Content?
    /// temperature, maxOutputTokens, topP, topK, stopSequences, seed, presencePenalty,
    /// frequencyPenalty, responseMimeType (a prompt file's `output.format: json`); `nil` members
    /// keep the session's.
    var generation = GenerationConfig()
    /// Functions declared for this call, after the session's (a prompt file's `toolDefs`).
    var functions: [FunctionDeclaration] = []

    /// `config` with these members set.
    func applied(to config: GenerationConfig?) -> GenerationConfig? {
        guard generation != GenerationConfig() else { return config }
        var config = config ?? GenerationConfig()
        if let value = generation.temperature { config.temperature = value }
        if let value = generation.maxOutputTokens { config.maxOutputTokens = value }
        if let value = generation.topP { config.topP = value }
        if let value = generation.topK { config.topK = value }
        if let value = generation.stopSequences { config.stopSequences = value }
        if let value = generation.seed { config.seed = value }
        if let value = generation.presencePenalty { config.presencePenalty = value }
        if let value = generation.frequencyPenalty { config.frequencyPenalty = value }
        if let value = generation.responseMimeType { config.responseMimeType = value }
        return config
    }
}
