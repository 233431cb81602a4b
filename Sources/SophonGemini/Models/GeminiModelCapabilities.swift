/// What a model accepts, for settings that differ between models, so that a setting a model
/// cannot take is adapted or refused before the request is sent (never sent to earn a 400).
///
/// Sources: Google's Gemini API thinking guide (Gemini 2.5 models take `thinkingBudget`:
/// 2.5 Pro 128...32768 and cannot turn thinking off, 2.5 Flash 0...24576, 2.5 Flash-Lite
/// 512...24576 or 0 for off, each also -1 for automatic; Gemini 3 models take `thinkingLevel`,
/// Pro models `LOW`/`HIGH` (3.1 Pro also `MEDIUM`), Flash models `MINIMAL` to `HIGH`, and still
/// accept a budget), and the level-to-budget mapping of Google's OpenAI-compatibility guide
/// (`low` 1024, `medium` 8192, `high` the model's maximum, `minimal` the model's minimum).
/// The later presets of this catalog (docs/library.md) are taken to behave as Gemini 3 Flash.
/// Generation settings (docs/commands.md, "What a model cannot take"): Gemini 2.5 models answer
/// `presencePenalty`/`frequencyPenalty` with a 400 "Penalty is not enabled for models/..." and
/// make text only (images and audio come from their `-image`/`-tts` variants); the other
/// presets take every generation setting.
/// A custom model has no entry: its settings are sent as given.
public struct GeminiModelCapabilities: Sendable, Hashable {
    /// How a model's thinking is controlled.
    public enum Thinking: Sendable, Hashable {
        /// `thinkingBudget` only, in tokens: `range` (plus -1 for automatic, and 0 for off when
        /// `canTurnOff`).
        case budget(range: ClosedRange<Int>, canTurnOff: Bool)
        /// `thinkingLevel`, one of `levels` (upper case); a budget is accepted too.
        case levels([String])
    }

    /// How the model's thinking is controlled; `nil` when unknown (sent as given).
    public var thinking: Thinking?

    /// Whether `presencePenalty` and `frequencyPenalty` may be sent.
    public var takesPenalties: Bool
    /// The `responseModalities` the model can answer in (upper case, `TEXT`), or `nil` when
    /// any may be asked for.
    public var responseModalities: Set<String>?

    /// Creates a capability entry; by default penalties are taken and every modality asked for.
    public init(thinking: Thinking?, takesPenalties: Bool = true, responseModalities: Set<String>? = nil) {
        self.thinking = thinking
        self.takesPenalties = takesPenalties
        self.responseModalities = responseModalities
    }

    /// The entry for `model`: known for every preset, empty (`thinking == nil`) for a custom one.
    public static func of(_ model: GeminiModel) -> GeminiModelCapabilities {
        switch model {
        case .gemini25Pro:
            GeminiModelCapabilities(
                thinking: .budget(range: 128...32768, canTurnOff: false), takesPenalties: false,
                responseModalities: ["TEXT"])
        case .gemini25Flash:
            GeminiModelCapabilities(
                thinking: .budget(range: 1...24576, canTurnOff: true), takesPenalties: false,
                responseModalities: ["TEXT"])
        case .gemini25FlashLite:
            GeminiModelCapabilities(
                thinking: .budget(range: 512...24576, canTurnOff: true), takesPenalties: false,
                responseModalities: ["TEXT"])
        case .gemini31Pro:
            GeminiModelCapabilities(thinking: .levels(["LOW", "MEDIUM", "HIGH"]))
        case .gemini3Flash, .gemini31FlashLite, .gemini35FlashLite, .gemini35Flash, .gemini36Flash,
            .gemini38Flash:
            GeminiModelCapabilities(thinking: .levels(["MINIMAL", "LOW", "MEDIUM", "HIGH"]))
        case .custom:
            GeminiModelCapabilities(thinking: nil)
        }
    }

    /// What becomes of a `thinkingConfig` on a model with these capabilities.
    public enum ThinkingAdaptation: Sendable, Hashable {
        /// Sent as given.
        case unchanged
        /// Sent as this configuration instead; `note` says what changed and why
        /// (`gemini-2.5-flash takes a thinking budget, not a level: thinking low sent as budget 1024`).
        case adapted(ThinkingConfig, note: String)
        /// Not sendable on this model; `reason` says why
        /// (`gemini-2.5-pro cannot turn thinking off (budget 0); use a budget of 128...32768 or -1`).
        case refused(reason: String)
    }

    /// Adapts `config` for `modelID` (named in the notes): a level on a budget-only model
    /// becomes the budget of Google's mapping; a budget outside the model's range is clamped
    /// into it; a level the model does not list becomes the nearest one it does; budget 0 on a
    /// model that cannot turn thinking off is refused.
    public func adapt(_ config: ThinkingConfig, modelID: String) -> ThinkingAdaptation {
        guard let thinking else { return .unchanged }
        switch thinking {
        case .budget(let range, let canTurnOff):
            if let level = config.thinkingLevel {
                let budget = Self.budget(forLevel: level, range: range, canTurnOff: canTurnOff)
                var adapted = config
                adapted.thinkingLevel = nil
                adapted.thinkingBudget = budget
                return .adapted(
                    adapted,
                    note: "\(modelID) takes a thinking budget, not a level: "
                        + "thinking \(level.lowercased()) sent as budget \(budget)")
            }
            guard let budget = config.thinkingBudget, budget != -1 else { return .unchanged }
            if budget == 0 {
                if canTurnOff { return .unchanged }
                return .refused(
                    reason: "\(modelID) cannot turn thinking off (budget 0); "
                        + "use a budget of \(range.lowerBound)...\(range.upperBound) or -1 (automatic)")
            }
            guard !range.contains(budget) else { return .unchanged }
            var adapted = config
            adapted.thinkingBudget = min(max(budget, range.lowerBound), range.upperBound)
            return .adapted(
                adapted,
                note: "\(modelID) takes a thinking budget of \(range.lowerBound)...\(range.upperBound): "
                    + "budget \(budget) sent as \(adapted.thinkingBudget ?? 0)")
        case .levels(let levels):
            guard let level = config.thinkingLevel?.uppercased(), !levels.contains(level) else {
                return .unchanged
            }
            let order = ["MINIMAL", "LOW", "MEDIUM", "HIGH"]
            let wanted = order.firstIndex(of: level) ?? 0
            let nearest =
                levels.min {
                    abs((order.firstIndex(of: $0) ?? 0) - wanted)
                        < abs((order.firstIndex(of: $1) ?? 0) - wanted)
                } ?? level
            var adapted = config
            adapted.thinkingLevel = nearest
            return .adapted(
                adapted,
                note:
                    "\(modelID) takes thinking levels \(levels.map { $0.lowercased() }.joined(separator: ", ")): "
                    + "thinking \(level.lowercased()) sent as \(nearest.lowercased())")
        }
    }

    /// The budget standing for `level` on a budget-only model: `MINIMAL` the least (0 when
    /// thinking can be turned off), `LOW` 1024, `MEDIUM` 8192, `HIGH` the most; clamped into
    /// `range`.
    static func budget(forLevel level: String, range: ClosedRange<Int>, canTurnOff: Bool) -> Int {
        let wanted: Int
        switch level.uppercased() {
        case "MINIMAL": return canTurnOff ? 0 : range.lowerBound
        case "LOW": wanted = 1024
        case "MEDIUM": wanted = 8192
        default: wanted = range.upperBound
        }
        return min(max(wanted, range.lowerBound), range.upperBound)
    }
}

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
