import SophonCore
import SophonGemini

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
    static func safetySettings(_ settings: ShellSettings) -> [SafetySetting]? {
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
