import Foundation
import SophonCore
import SophonGemini

/// What every Gemini command shares: the client with a key check, the request built from the
/// session's settings, typed failures, and the report after a call (docs/language.md).
enum GeminiCall {
    /// The client, after checking that a key is set (not needed under `--replay`).
    /// - Throws: ``CommandFailure`` `missingAPIKey` with how to set one.
    /// - Throws: under `set dry-run on` a usage failure naming `command`: whoever asks for a
    ///   client that sends while dry-run is on has no dry run of its own (`run`, `batch`,
    ///   `files`, `models --live`, `agent`, an upload by `attach`, an `expect ... similar|judge`),
    ///   so nothing is sent (the commands with a dry run make theirs with
    ///   ``GeminiServices/makeDryRunClient(session:transport:)`` instead).
    static func client(command: String, context: CommandContext, services: GeminiServices) throws
        -> GeminiAPIClient
    {
        if context.session.geminiSettings.dryRun {
            throw CommandFailure(
                kind: .usage,
                message:
                    "\(command): nothing sent: dry-run is on, and \(command) has no dry run (set dry-run off to send)"
            )
        }
        if let problem = services.baseURLProblem {
            throw CommandFailure(kind: .invalidBaseURL, message: problem)
        }
        var deployment = try VertexSetup.deployment(session: context.session, services: services)
        if !services.transcript.runsLive { deployment.tokens = nil }  // a replay sends nothing
        if services.transcript.runsLive, deployment.needsKey, try services.apiKey() == nil {
            throw CommandFailure(
                kind: .missingAPIKey, message: missingKeyMessage(language: context.session.settings.language))
        }
        return services.makeClient(session: context.session, deployment: deployment)
    }

    /// What a call without a key says, in the session's language (docs/commands.md, "language"):
    /// in English `no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or run 'key set'`; in
    /// another, the library's sentence for ``GeminiError/missingAPIKey`` in that language, then
    /// the variables and the command to use.
    static func missingKeyMessage(language: String) -> String {
        guard language != "en" else {
            return "no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or run 'key set'"
        }
        return GeminiError.missingAPIKey.description(language: language)
            + " (GEMINI_API_KEY, GOOGLE_API_KEY, 'key set')"
    }

    /// A ``GeminiError`` as a command failure: kind = the case name, message in the session's
    /// language.
    static func failure(_ error: GeminiError, context: CommandContext) -> CommandFailure {
        if let failure = DeploymentSettings.cacheFailure(error, context: context) { return failure }
        if let failure = VertexSetup.refusedCredentials(error, context: context) { return failure }
        return CommandFailure(
            kind: kind(of: error), message: error.description(language: context.session.settings.language))
    }

    /// ``failure(_:context:)`` for a call that a 404 sent to the fallback `fallback` and that
    /// then failed: the message names both models and the 404 first (docs/commands.md).
    static func failure(
        _ error: GeminiError, requested: String, fallback: String?, context: CommandContext
    ) -> CommandFailure {
        var failure = Self.failure(error, context: context)
        if let fallback, fallback != requested {
            failure.message =
                "\(requested) is not available (404); the fallback \(fallback) failed too: \(failure.message)"
        }
        return failure
    }

    /// A ``GeminiFileError`` as a command failure (its English description).
    static func failure(_ error: GeminiFileError) -> CommandFailure {
        let kind: ShellErrorKind =
            switch error {
            case .processingFailed: .fileProcessingFailed
            case .processingTimedOut: .fileProcessingTimedOut
            case .notFound: .fileNotFound
            case .expired: .fileExpired
            case .uploadFailed: .uploadFailed
            case .notDownloadable: .notDownloadable
            }
        return CommandFailure(kind: kind, message: error.description)
    }

    /// The lowerCamelCase name of the error's case (`rateLimited`, `modelRetired`).
    static func kind(of error: GeminiError) -> ShellErrorKind {
        switch error {
        case .missingAPIKey: return .missingAPIKey
        case .invalidAPIKey: return .invalidAPIKey
        case .invalidModelID: return .invalidModelID
        case .transport: return .transport
        case .http: return .http
        case .rateLimited: return .rateLimited
        case .quotaExhausted: return .quotaExhausted
        case .modelRetired: return .modelRetired
        case .invalidRequest: return .invalidRequest
        case .promptBlocked: return .promptBlocked
        case .contentBlocked: return .contentBlocked
        case .truncated: return .truncated
        case .emptyResponse, .stoppedWithoutContent: return .emptyResponse
        case .streamEndedEarly: return .streamEndedEarly
        case .decodingFailed: return .decodingFailed
        case .mediaTooLarge: return .mediaTooLarge
        case .mediaUnreadable: return .mediaUnreadable
        case .toolCallFailed: return .toolCallFailed
        }
    }

    /// The generation settings of the session (`temperature`, `max-tokens`, `thinking`, and
    /// `top-p` ... `media-resolution`);
    /// `nil` when none is set, so the request carries no empty `generationConfig`.
    static func generationConfig(_ settings: GeminiSettings) -> GenerationConfig? {
        var config = GenerationConfig(maxOutputTokens: settings.maxTokens, temperature: settings.temperature)
        switch settings.thinking {
        case .none: break
        case .budget(let budget): config.thinkingConfig = ThinkingConfig(thinkingBudget: budget)
        case .level(let level): config.thinkingConfig = ThinkingConfig(thinkingLevel: level)
        }
        addGenerationSettings(settings.generation, to: &config)
        return config == GenerationConfig() ? nil : config
    }

    /// Fits the request's `thinkingConfig` to what `model` takes (SophonGemini's
    /// `GeminiModelCapabilities`): adapted with a `note:` on stderr, or refused before sending
    /// (docs/commands.md, `thinking`).
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take the setting.
    static func fitThinking(
        _ request: inout GenerateContentRequest, model: GeminiModel, context: CommandContext
    ) throws {
        guard let thinking = request.generationConfig?.thinkingConfig else { return }
        switch GeminiModelCapabilities.of(model).adapt(thinking, modelID: model.id) {
        case .unchanged:
            return
        case .adapted(let adapted, let note):
            request.generationConfig?.thinkingConfig = adapted
            context.io.printError(ShellMessages.note(note))
        case .refused(let reason):
            throw CommandFailure(kind: .invalidSetting, message: "thinking: " + reason)
        }
    }

    /// The system instruction of the session, if any.
    static func systemInstruction(_ settings: GeminiSettings) -> Content? {
        settings.system.map { Content(role: nil, parts: [.text($0)]) }
    }

    /// After a call: totals, the fallback notice, the dim line on a terminal, and the `--json`
    /// members (`model`, `usage`, `retries`).
    /// - Parameters:
    ///   - requested: the model the call asked for; when a 404 sent it to the fallback and it
    ///     is the session's model, the session switches to the fallback (docs/language.md).
    ///   - counted: whether the reply counts its tokens; `false` (an embedding reply has no
    ///     `usageMetadata`, a reply that could not be read) makes the cost unknown, never 0
    ///     (docs/cost.md).
    static func finish(
        model: String, requested: String, usage: UsageMetadata?, counted: Bool = true, retries: Int,
        usedFallback: Bool, started: ContinuousClock.Instant,
        context: CommandContext
    ) -> [JSONMember] {
        let cost =
            counted
            ? PriceBook.of(context)?.cost(
                model: model, usage: usage, tier: ServedTier.pricing(usage, context: context)) : nil
        CostLedger.count(cost, model: model, usage: usage, context: context)
        context.session.withGeminiState { state in
            if usedFallback, state.settings.model == requested { state.settings.model = model }
        }
        if usedFallback {
            context.io.printError(
                "note: \(requested) is not available (404); answered by the fallback \(model)")
        }
        ServedTier.report(usage, context: context)
        let elapsed = ContinuousClock.now - started
        if Terminal.isTerminal(STDERR_FILENO) {
            let line =
                "\(model) · \(usage?.promptTokenCount ?? 0) in / \(usage?.candidatesTokenCount ?? 0) out"
                + " / \(usage?.thoughtsTokenCount ?? 0) thoughts · \(VerboseLog.seconds(elapsed))"
                + " · \(retries) \(retries == 1 ? "retry" : "retries")"
            context.io.printError(Terminal.dim(line))
        }
        return envelope(model: model, usage: usage, retries: retries, cost: cost)
    }

    /// The one builder of a reply's `--json` members `model`, `usage`, `retries`, `cost`
    /// (docs/commands.md; `cost` in US dollars or `"unknown"`, docs/cost.md);
    /// ``finish(model:requested:usage:retries:usedFallback:started:context:)`` and a tool
    /// exchange's totals both come here.
    static func envelope(model: String, usage: UsageMetadata?, retries: Int, cost: Double?) -> [JSONMember] {
        [
            JSONMember("model", .string(model)),
            JSONMember("usage", usageValue(usage)),
            JSONMember("retries", .integer(retries)),
            JSONMember("cost", CostText.value(cost)),
        ] + ServedTier.members(usage)
    }

    /// The `cost` of an ``envelope(model:usage:retries:cost:)`` in US dollars; `nil` when unknown.
    static func cost(in envelope: [JSONMember]) -> Double? {
        envelope.first { $0.key == "cost" }?.value.doubleValue
    }
}

/// Terminal checks for decoration: colour only on a terminal, never with `NO_COLOR` or a dumb
/// terminal.
enum Terminal {
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether escape sequences may be written to stderr.
    static var allowsColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        let term = environment["TERM"] ?? ""
        return environment["NO_COLOR"] == nil && !term.isEmpty && term != "dumb" && isTerminal(STDERR_FILENO)
    }

    /// `text` dimmed when colour is allowed, else as is.
    static func dim(_ text: String) -> String {
        allowsColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }
}

extension GeminiCall {
    /// The `usage` member of `--json` results and `run` output lines: `promptTokens`,
    /// `outputTokens`, `thoughtsTokens`, `totalTokens` (absent counts are 0; docs/commands.md).
    static func usageValue(_ usage: UsageMetadata?) -> JSONValue {
        .object(
            [
                JSONMember("promptTokens", .integer(usage?.promptTokenCount ?? 0)),
                JSONMember("outputTokens", .integer(usage?.candidatesTokenCount ?? 0)),
                JSONMember("thoughtsTokens", .integer(usage?.thoughtsTokenCount ?? 0)),
                JSONMember("totalTokens", .integer(usage?.totalTokenCount ?? 0)),
            ] + (usage?.cachedContentTokenCount.map { [JSONMember("cachedTokens", .integer($0))] } ?? []))
    }
}

/// The settings `top-p` ... `media-resolution` in a request, and fitting them to the model
/// (docs/commands.md, "Settings" and "What a model cannot take").
extension GeminiCall {
    /// Copies the set generation settings into `config` under the API's field names.
    static func addGenerationSettings(_ settings: GenerationSettings, to config: inout GenerationConfig) {
        config.topP = settings.topP
        config.topK = settings.topK
        config.seed = settings.seed
        config.stopSequences = settings.stop
        config.presencePenalty = settings.presencePenalty
        config.frequencyPenalty = settings.frequencyPenalty
        config.responseModalities = settings.responseModalities
        config.mediaResolution = settings.mediaResolution
    }

    /// The session's `safety` lines as `safetySettings`; `nil` when none is set.
    static func safetySettings(_ settings: GeminiSettings) -> [SafetySetting]? {
        let safety = settings.generation.safety
        guard !safety.isEmpty else { return nil }
        return safety.map { SafetySetting(category: $0.category, threshold: $0.threshold) }
    }

    /// Fits the request's generation settings to what `model` takes (SophonGemini's
    /// `GeminiModelCapabilities`): a setting left out gets a `note:` on stderr; one the model
    /// cannot honour is refused before anything is sent.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) naming the setting and the model.
    static func fitGeneration(
        _ request: inout GenerateContentRequest, model: GeminiModel, context: CommandContext
    ) throws {
        guard let config = request.generationConfig else { return }
        switch GeminiModelCapabilities.of(model).adapt(config, modelID: model.id) {
        case .unchanged:
            return
        case .adapted(let adapted, let notes):
            request.generationConfig = adapted == GenerationConfig() ? nil : adapted
            for note in notes { context.io.printError(ShellMessages.note(note)) }
        case .refused(let setting, let reason):
            throw CommandFailure(kind: .invalidSetting, message: "\(setting): \(reason)")
        }
    }
}

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
