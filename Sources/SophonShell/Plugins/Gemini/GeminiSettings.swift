import SophonCore

/// The Gemini plugin's settings (docs/commands.md, "Settings"): the model, the generation
/// settings a request carries, streaming, dry runs and where reply media goes. They sit in the
/// one settings table beside the shell's own (``ShellSettings``), in the documented `show`
/// order (``definitions``). Every value is validated when set; an invalid value leaves the
/// setting unchanged.
struct GeminiSettings: Sendable, Equatable {
    /// Thinking control: a token budget (`0` off, `-1` automatic) or a level.
    enum Thinking: Sendable, Equatable {
        /// `thinkingConfig.thinkingBudget` in tokens.
        case budget(Int)
        /// `thinkingConfig.thinkingLevel`: MINIMAL, LOW, MEDIUM or HIGH.
        case level(String)
    }

    /// The model ID for calls (`set model` resolves presets, ``ModelCommands``).
    var model: String = "gemini-3.8-flash"
    /// `generationConfig.temperature`, 0...2; `nil` leaves the model's default.
    var temperature: Double?
    /// `generationConfig.maxOutputTokens`; `nil` leaves the model's default.
    var maxTokens: Int?
    /// `systemInstruction` text.
    var system: String?
    /// Stream text replies as they arrive.
    var stream = true
    /// Thinking budget or level; `nil` leaves the model's default.
    var thinking: Thinking?
    /// Print the requests `ask`, `chat` and `tokens` would send instead of sending them.
    var dryRun = false
    /// `set media-dir DIR`: where reply media is saved; `nil` is `media/` in the state folder.
    var mediaDir: String?
    /// Sampling, stop, safety and output settings (`top-p` ... `media-resolution`).
    var generation = GenerationSettings()

    /// The names these settings answer, in `show` order.
    static let names =
        ["model", "temperature", "max-tokens", "system", "stream", "thinking", "dry-run"]
        + GenerationSettings.names + ["media-dir"]

    /// The rows of the settings table, placed among the shell's own as docs/commands.md lists
    /// them: `model` ... `stream` before `output`, `thinking` before `timeout`, the rest after
    /// `language`. `model`'s values come from the plugin (the catalog's names).
    static let definitions: [SettingDefinition] = names.map { name in
        let before: String? =
            switch name {
            case "model", "temperature", "max-tokens", "system", "stream": "output"
            case "thinking": "timeout"
            default: nil
            }
        return SettingDefinition(
            name: name, values: GenerationSettings.completions(for: name) ?? completions(for: name),
            before: before)
    }

    /// The values Tab after `set NAME` offers for the settings besides ``GenerationSettings``
    /// (`model`'s come from the plugin); `[]` for a free value.
    static func completions(for name: String) -> [String] {
        switch name {
        case "stream", "dry-run": OnOff.words
        case "thinking": thinkingLevels + ["default"]
        default: []
        }
    }

    /// The thinking levels `set thinking` takes (sent upper-cased as `thinkingLevel`).
    static let thinkingLevels = ["minimal", "low", "medium", "high"]

    /// The settings besides ``GenerationSettings`` that `default` clears.
    static let modelDefaulted = ["temperature", "max-tokens", "thinking"]

    /// Sets `name` from the words after it: the generation settings read each word
    /// (`set stop "###" END`), the others the words joined by one space.
    /// - Throws: as ``set(_:to:)``.
    mutating func set(_ name: String, words: [String]) throws {
        if GenerationSettings.names.contains(name) {
            try generation.set(name, words: words)
        } else {
            try set(name, to: words.joined(separator: " "))
        }
    }

    /// Sets `name` from its text `value`; `default` clears `temperature`, `max-tokens` and
    /// `thinking` as it clears the generation settings (docs/commands.md, "Settings").
    /// - Throws: ``CommandFailure`` (`invalidSetting`) naming the accepted values or range, or
    ///   (`unknownSetting`) for a name that is not one of ``names``.
    mutating func set(_ name: String, to value: String) throws {
        func invalid(_ expectation: String) -> CommandFailure {
            .invalidSetting(name, expected: expectation, got: value)
        }
        switch name {
        case "model":
            guard !value.isEmpty, !value.contains(where: \.isWhitespace) else { throw invalid("a model ID") }
            model = value
        case _ where Self.modelDefaulted.contains(name) && value.lowercased() == "default":
            // The value `show` prints for an unset one: the model's own applies, nothing is sent.
            clearToModelDefault(name)
        case "temperature":
            guard let number = Double(value), number.isFinite, (0...2).contains(number) else {
                throw invalid("a number in 0...2")
            }
            temperature = number
        case "max-tokens":
            guard let count = Int(value), (1...Int(Int32.max)).contains(count) else {
                throw invalid("a whole number of tokens in 1...\(Int32.max)")
            }
            maxTokens = count
        case "system": system = value.isEmpty ? nil : value
        case "stream": stream = try OnOff.parse(value, orThrow: invalid("on or off"))
        case "dry-run": dryRun = try OnOff.parse(value, orThrow: invalid("on or off"))
        case "thinking":
            if let budget = Int(value), (-1...Int(Int32.max)).contains(budget) {
                thinking = .budget(budget)
            } else if Self.thinkingLevels.contains(value.lowercased()) {
                thinking = .level(value.uppercased())
            } else {
                throw invalid("a token budget (0 off, -1 automatic) or minimal, low, medium, high")
            }
        case "media-dir":
            mediaDir = ["", "default"].contains(value) ? nil : value
        case _ where GenerationSettings.names.contains(name):
            try generation.set(name, words: [value])
        default:
            throw ShellSettings.unknown(name, among: Self.names)
        }
    }

    /// Clears `temperature`, `max-tokens` or `thinking` (`set NAME default`).
    private mutating func clearToModelDefault(_ name: String) {
        switch name {
        case "temperature": temperature = nil
        case "max-tokens": maxTokens = nil
        default: thinking = nil
        }
    }

    /// The text `show NAME` prints for the setting; `nil` for a name that is not one of
    /// ``names``.
    func value(of name: String) -> String? {
        switch name {
        case "model": model
        case "temperature": temperature.flatMap { JSONNumber($0)?.text } ?? "default"
        case "max-tokens": maxTokens.map(String.init) ?? "default"
        case "system": system ?? ""
        case "stream": OnOff.text(stream)
        case "dry-run": OnOff.text(dryRun)
        case "thinking":
            switch thinking {
            case .none: "default"
            case .budget(let budget): String(budget)
            case .level(let level): level.lowercased()
            }
        case "media-dir": mediaDir ?? "default"
        case _ where GenerationSettings.names.contains(name): generation.value(of: name)
        default: nil
        }
    }
}
