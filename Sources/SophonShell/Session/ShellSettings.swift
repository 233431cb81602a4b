import SophonCore

/// The settings `set KEY VALUE` changes and `show [KEY]` prints (docs/commands.md).
/// Every value is validated when set; an invalid value leaves the setting unchanged.
struct ShellSettings: Sendable, Equatable {
    /// Thinking control: a token budget (`0` off, `-1` automatic) or a level.
    enum Thinking: Sendable, Equatable {
        /// `thinkingConfig.thinkingBudget` in tokens.
        case budget(Int)
        /// `thinkingConfig.thinkingLevel`: MINIMAL, LOW, MEDIUM or HIGH.
        case level(String)
    }

    /// The model ID for calls (resolved by the gemini plugin).
    var model: String = "gemini-3.8-flash"
    /// `generationConfig.temperature`, 0...2; `nil` leaves the model's default.
    var temperature: Double?
    /// `generationConfig.maxOutputTokens`; `nil` leaves the model's default.
    var maxTokens: Int?
    /// `systemInstruction` text.
    var system: String?
    /// Stream text replies as they arrive.
    var stream = true
    /// How results print.
    var output: OutputFormat = .pretty
    /// Stop a script at the first failed command.
    var bail = false
    /// Print `sophon> COMMAND` before each command.
    var echo = false
    /// Thinking budget or level; `nil` leaves the model's default.
    var thinking: Thinking?
    /// Whole-call timeout.
    var timeout: Duration = .seconds(180)
    /// Language of error messages: en, es, zh-Hans, zh-Hant.
    var language = "en"
    /// Print the requests `ask`, `chat` and `tokens` would send instead of sending them.
    var dryRun = false
    /// `set media-dir DIR`: where reply media is saved; `nil` is `media/` in the state folder.
    var mediaDir: String?
    /// Sampling, stop, safety and output settings (`top-p` ... `media-resolution`).
    var generation = GenerationSettings()

    /// Setting names in `show` order.
    static let names =
        [
            "model", "temperature", "max-tokens", "system", "stream", "output", "bail", "echo", "thinking",
            "timeout", "language", "dry-run",
        ] + GenerationSettings.names + ["media-dir"]

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
    ///   (`unknownSetting`) with a "did you mean" suggestion.
    mutating func set(_ name: String, to value: String) throws {
        func invalid(_ expectation: String) -> CommandFailure {
            CommandFailure(
                kind: .invalidSetting, message: "set \(name): expected \(expectation), got '\(value)'")
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
        case "stream": stream = try Self.flag(value, orThrow: invalid("on or off"))
        case "bail": bail = try Self.flag(value, orThrow: invalid("on or off"))
        case "echo": echo = try Self.flag(value, orThrow: invalid("on or off"))
        case "dry-run": dryRun = try Self.flag(value, orThrow: invalid("on or off"))
        case "output":
            guard let format = OutputFormat(rawValue: value) else { throw invalid("pretty, json or raw") }
            output = format
        case "thinking":
            if let budget = Int(value), (-1...Int(Int32.max)).contains(budget) {
                thinking = .budget(budget)
            } else if ["MINIMAL", "LOW", "MEDIUM", "HIGH"].contains(value.uppercased()) {
                thinking = .level(value.uppercased())
            } else {
                throw invalid("a token budget (0 off, -1 automatic) or minimal, low, medium, high")
            }
        case "timeout":
            guard let duration = DurationParser.parse(value), duration > .zero else {
                throw invalid("a positive duration such as 30s, 500ms or 2m")
            }
            timeout = duration
        case "language":
            guard
                let language = ["en", "es", "zh-Hans", "zh-Hant"].first(where: {
                    $0.lowercased() == value.lowercased()
                })
            else { throw invalid("en, es, zh-Hans or zh-Hant") }
            self.language = language
        case "media-dir":
            mediaDir = ["", "default"].contains(value) ? nil : value
        case _ where GenerationSettings.names.contains(name):
            try generation.set(name, words: [value])
        default:
            throw Self.unknown(name)
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

    /// The text `show NAME` prints for the setting.
    /// - Throws: ``CommandFailure`` (`unknownSetting`).
    func value(of name: String) throws -> String {
        switch name {
        case "model": model
        case "temperature": temperature.flatMap { JSONNumber($0)?.text } ?? "default"
        case "max-tokens": maxTokens.map(String.init) ?? "default"
        case "system": system ?? ""
        case "stream": OnOff.text(stream)
        case "output": output.rawValue
        case "bail": OnOff.text(bail)
        case "echo": OnOff.text(echo)
        case "dry-run": OnOff.text(dryRun)
        case "thinking":
            switch thinking {
            case .none: "default"
            case .budget(let budget): String(budget)
            case .level(let level): level.lowercased()
            }
        case "timeout": DurationParser.format(timeout)
        case "language": language
        case "media-dir": mediaDir ?? "default"
        case _ where GenerationSettings.names.contains(name): generation.value(of: name)
        default: throw Self.unknown(name)
        }
    }

    private static func flag(_ value: String, orThrow error: CommandFailure) throws -> Bool {
        guard let flag = OnOff.parse(value) else { throw error }
        return flag
    }

    /// `unknown setting 'NAME'` (cut at 64 characters) with the closest of `candidates`.
    static func unknown(_ name: String, among candidates: [String] = names) -> CommandFailure {
        let shown = name.count > 64 ? name.prefix(64) + "…" : Substring(name)
        var message = "unknown setting '\(shown)'"
        message += ShellMessages.didYouMean(Suggestions.closest(to: name, in: candidates).first)
        return CommandFailure(kind: .unknownSetting, message: message)
    }
}

/// The one reading of an on/off word: `on`/`off`, `yes`/`no`, `true`/`false`, `1`/`0`, in any
/// case (`set log YES`, `set tool-confirm yes`, `set stream Off`).
enum OnOff {
    /// The boolean `word` stands for; `nil` for any other word.
    static func parse(_ word: String) -> Bool? {
        switch word.lowercased() {
        case "on", "yes", "true", "1": true
        case "off", "no", "false", "0": false
        default: nil
        }
    }

    /// `on` or `off`, as `show` prints a switch.
    static func text(_ value: Bool) -> String { value ? "on" : "off" }
}

/// Parses the shell's durations: `500ms`, `0.8s`, `6s`, `2m`, `1h`; a bare number is seconds
/// (docs/library.md, "Retry policies", `retry-policy` values and `sleep`).
enum DurationParser {
    /// The duration `text` denotes, or `nil` when it is not a non-negative finite duration.
    static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for unit in units where text.hasSuffix(unit.suffix) {
            number = text.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite
        else { return nil }
        let seconds = value * scale
        guard seconds <= 365 * 24 * 3600 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Shortest readable form: `500ms`, `0.8s`, `6s`, `2m`.
    static func format(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        let seconds = Double(milliseconds) / 1000
        return "\(seconds)s"
    }
}
