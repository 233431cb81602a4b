/// Fitting `generationConfig` settings other than thinking to a model (the table in
/// ``GeminiModelCapabilities``; docs/commands.md, "What a model cannot take").
extension GeminiModelCapabilities {
    /// What becomes of a `generationConfig` on a model with these capabilities.
    public enum GenerationAdaptation: Sendable, Hashable {
        /// Sent as given.
        case unchanged
        /// Sent as this configuration instead; each note says what was left out and why
        /// (`gemini-2.5-flash does not take presence-penalty (...): not sent`).
        case adapted(GenerationConfig, notes: [String])
        /// Not sendable on this model; `setting` is the shell's name of the setting and
        /// `reason` says why (`gemini-2.5-pro answers in text only, not image`).
        case refused(setting: String, reason: String)
    }

    /// Adapts `config` for `modelID` (named in the notes): penalties on a model that does not
    /// take them are left out with a note; output modalities the model cannot produce are
    /// refused (the answer asked for cannot come). Thinking is fitted by
    /// ``adapt(_:modelID:)`` (the `ThinkingConfig` form).
    public func adapt(_ config: GenerationConfig, modelID: String) -> GenerationAdaptation {
        if let wanted = config.responseModalities, let possible = responseModalities {
            let missing = wanted.filter { !possible.contains($0.uppercased()) }
            if !missing.isEmpty {
                let listed = possible.sorted().map { $0.lowercased() }.joined(separator: ", ")
                return .refused(
                    setting: "response-modalities",
                    reason: "\(modelID) answers in \(listed) only, not "
                        + missing.map { $0.lowercased() }.joined(separator: ", "))
            }
        }
        guard !takesPenalties, config.presencePenalty != nil || config.frequencyPenalty != nil else {
            return .unchanged
        }
        var adapted = config
        var notes: [String] = []
        for (name, value) in [
            ("presence-penalty", config.presencePenalty), ("frequency-penalty", config.frequencyPenalty),
        ] where value != nil {
            notes.append("\(modelID) does not take \(name) (penalties are not enabled for it): not sent")
        }
        adapted.presencePenalty = nil
        adapted.frequencyPenalty = nil
        return .adapted(adapted, notes: notes)
    }
}
