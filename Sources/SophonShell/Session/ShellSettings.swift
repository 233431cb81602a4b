import SophonCore

/// The shell's own settings `set KEY VALUE` changes and `show [KEY]` prints (docs/commands.md):
/// how results print, scripts' failure and echo, the whole-call timeout and the language of
/// messages. Plugins register theirs in the same table (``SettingDefinition``; the Gemini
/// plugin's `model`, `temperature`, ...). Every value is validated when set; an invalid value
/// leaves the setting unchanged.
struct ShellSettings: Sendable, Equatable {
    /// How results print.
    var output: OutputFormat = .pretty
    /// Stop a script at the first failed command.
    var bail = false
    /// Print `sophon> COMMAND` before each command.
    var echo = false
    /// The timeout `set timeout` chose; `nil` while ``defaultTimeout`` is in force. A chosen one
    /// never gives way to a plugin's default, even when it is 3m.
    var chosenTimeout: Duration?
    /// The timeout while none is chosen: 3 minutes, or a plugin's own default while it is in
    /// force (the Flex tier's 20 minutes after `set service-tier flex`).
    var defaultTimeout = Self.standardTimeout
    /// Language of error messages: en, es, zh-Hans, zh-Hant.
    var language = "en"

    /// The default whole-call timeout: 3 minutes.
    static let standardTimeout = Duration.seconds(180)

    /// Whole-call timeout (a Gemini call, a plugin's command): the chosen one, else the default.
    var timeout: Duration { chosenTimeout ?? defaultTimeout }

    /// The languages of error messages (`set language`; the library's `GeminiErrorText`).
    static let languages = ["en", "es", "zh-Hans", "zh-Hant"]

    /// Setting names in `show` order (plugins place theirs among them).
    static let names = ["output", "bail", "echo", "timeout", "language"]

    /// The values Tab after `set NAME` offers (and `help set` lists); `[]` for a free value.
    static func completions(for name: String) -> [String] {
        switch name {
        case "output": OutputFormat.allCases.map(\.rawValue)
        case "bail", "echo": OnOff.words
        case "language": languages
        default: []
        }
    }

    /// Sets `name` from the words after it, joined by one space.
    /// - Throws: as ``set(_:to:)``.
    mutating func set(_ name: String, words: [String]) throws {
        try set(name, to: words.joined(separator: " "))
    }

    /// Sets `name` from its text `value`.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) naming the accepted values or range, or
    ///   (`unknownSetting`) with a "did you mean" suggestion.
    mutating func set(_ name: String, to value: String) throws {
        func invalid(_ expectation: String) -> CommandFailure {
            .invalidSetting(name, expected: expectation, got: value)
        }
        switch name {
        case "bail": bail = try OnOff.parse(value, orThrow: invalid("on or off"))
        case "echo": echo = try OnOff.parse(value, orThrow: invalid("on or off"))
        case "output":
            guard let format = OutputFormat(rawValue: value) else { throw invalid("pretty, json or raw") }
            output = format
        case "timeout":
            guard let duration = DurationParser.parse(value), duration > .zero else {
                throw invalid("a positive duration up to a year, such as 30s, 500ms or 2m")
            }
            chosenTimeout = duration
        case "language":
            guard
                let language = Self.languages.first(where: {
                    $0.lowercased() == value.lowercased()
                })
            else { throw invalid("en, es, zh-Hans or zh-Hant") }
            self.language = language
        default:
            throw Self.unknown(name)
        }
    }

    /// The text `show NAME` prints for the setting.
    /// - Throws: ``CommandFailure`` (`unknownSetting`).
    func value(of name: String) throws -> String {
        switch name {
        case "output": output.rawValue
        case "bail": OnOff.text(bail)
        case "echo": OnOff.text(echo)
        case "timeout": DurationParser.format(timeout)
        case "language": language
        default: throw Self.unknown(name)
        }
    }

    /// `unknown setting 'NAME'` (cut at 64 characters) with the closest of `candidates`.
    static func unknown(_ name: String, among candidates: [String] = names) -> CommandFailure {
        var message = "unknown setting '\(ShellMessages.shown(name))'"
        message += ShellMessages.didYouMean(Suggestions.closest(to: name, in: candidates).first)
        return CommandFailure(kind: .unknownSetting, message: message)
    }
}

/// The one reading of an on/off word: `on`/`off`, `yes`/`no`, `true`/`false`, `1`/`0`, in any
/// case (`set log YES`, `set tool-confirm yes`, `set stream Off`).
enum OnOff {
    /// The words Tab offers for an on/off setting.
    static let words = ["on", "off"]

    /// The boolean `word` stands for; `nil` for any other word.
    static func parse(_ word: String) -> Bool? {
        switch word.lowercased() {
        case "on", "yes", "true", "1": true
        case "off", "no", "false", "0": false
        default: nil
        }
    }

    /// The boolean `word` stands for.
    /// - Throws: `error` for any other word.
    static func parse(_ word: String, orThrow error: CommandFailure) throws -> Bool {
        guard let flag = parse(word) else { throw error }
        return flag
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

    /// Shortest readable form: `500ms`, `0.8s`, `6s`, `2m`, `1h`.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        let seconds = Double(milliseconds) / 1000
        return "\(seconds)s"
    }
}
