import Foundation
import SophonCore

/// The sampling, safety and output settings of `set` beyond temperature, max-tokens and
/// thinking (docs/commands.md, "Settings"): each `nil` (or empty) leaves the model's default and
/// is not sent. Ranges are the Gemini API's (docs/commands.md lists them with their source).
struct GenerationSettings: Sendable, Equatable {
    /// One `safetySettings` entry: a harm category and its block threshold (the API's names).
    struct Safety: Sendable, Equatable {
        var category: String
        var threshold: String
    }

    /// `generationConfig.topP`, 0...1.
    var topP: Double?
    /// `generationConfig.topK`, 1...2147483647.
    var topK: Int?
    /// `generationConfig.seed`, a 32-bit signed integer.
    var seed: Int?
    /// `generationConfig.stopSequences`: 1 to 5 non-empty sequences.
    var stop: [String]?
    /// `generationConfig.presencePenalty`, -2 up to (not including) 2.
    var presencePenalty: Double?
    /// `generationConfig.frequencyPenalty`, -2 up to (not including) 2.
    var frequencyPenalty: Double?
    /// `safetySettings`, one per category, in the order the categories were first set.
    var safety: [Safety] = []
    /// `generationConfig.responseModalities` (`TEXT`, `IMAGE`, `AUDIO`).
    var responseModalities: [String]?
    /// `generationConfig.mediaResolution` (`MEDIA_RESOLUTION_LOW`, `_MEDIUM`, `_HIGH`).
    var mediaResolution: String?

    /// The `set` name of each request field a setting sends (`generationConfig`'s and
    /// `safetySettings`): the name notes and errors give a field (`topP` is `top-p`).
    static let fieldSettings: [String: String] = [
        "temperature": "temperature", "maxOutputTokens": "max-tokens", "topP": "top-p", "topK": "top-k",
        "stopSequences": "stop", "seed": "seed", "presencePenalty": "presence-penalty",
        "frequencyPenalty": "frequency-penalty", "responseModalities": "response-modalities",
        "mediaResolution": "media-resolution", "safetySettings": "safety",
    ]

    /// Setting names in `show` order.
    static let names = [
        "top-p", "top-k", "seed", "stop", "presence-penalty", "frequency-penalty", "safety",
        "response-modalities", "media-resolution",
    ]

    /// The harm categories `safety` accepts (the API's `HarmCategory` names for Gemini).
    static let harmCategories = [
        "HARM_CATEGORY_HARASSMENT", "HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_SEXUALLY_EXPLICIT",
        "HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_CIVIC_INTEGRITY",
    ]

    /// The thresholds `safety` accepts (the API's `HarmBlockThreshold` names).
    static let thresholds = [
        "BLOCK_LOW_AND_ABOVE", "BLOCK_MEDIUM_AND_ABOVE", "BLOCK_ONLY_HIGH", "BLOCK_NONE", "OFF",
    ]

    /// The words of `media-resolution` and the API values they stand for.
    static let mediaResolutions = [
        ("low", "MEDIA_RESOLUTION_LOW"), ("medium", "MEDIA_RESOLUTION_MEDIUM"),
        ("high", "MEDIA_RESOLUTION_HIGH"),
    ]

    /// Sets `name` (one of ``names``) from the words after it; `default` clears any of them
    /// (`none` too for `stop`).
    /// - Throws: ``CommandFailure`` (`invalidSetting`) naming the accepted values or range;
    ///   the setting is then unchanged.
    mutating func set(_ name: String, words: [String]) throws {
        let value = words.joined(separator: " ")
        func invalid(_ expectation: String, got: String? = nil) -> CommandFailure {
            .invalidSetting(name, expected: expectation, got: got ?? value)
        }
        let clears = value.lowercased() == "default"
        switch name {
        case "top-p":
            topP = try clears ? nil : Self.number(value, in: 0...1, orThrow: invalid("a number in 0...1"))
        case "top-k":
            topK =
                try clears
                ? nil
                : Self.integer(
                    value, in: 1...Int(Int32.max), orThrow: invalid("a whole number in 1...\(Int32.max)"))
        case "seed":
            seed =
                try clears
                ? nil
                : Self.integer(
                    value, in: Int(Int32.min)...Int(Int32.max),
                    orThrow: invalid("a whole number in \(Int32.min)...\(Int32.max)"))
        case "presence-penalty", "frequency-penalty":
            let penalty =
                try clears
                ? nil
                : Self.number(value, in: -2...2, orThrow: invalid("a number in -2...2 (2 itself excluded)"))
            guard penalty != 2 else { throw invalid("a number in -2...2 (2 itself excluded)") }
            if name == "presence-penalty" { presencePenalty = penalty } else { frequencyPenalty = penalty }
        case "stop":
            stop = try Self.stopSequences(words, invalid: { invalid($0, got: $1) })
        case "safety":
            safety = try Self.safety(words, merging: safety, invalid: { invalid($0, got: $1) })
        case "response-modalities":
            responseModalities = try Self.modalities(
                value, orThrow: invalid("text, image, audio (comma-separated) or default"))
        case "media-resolution":
            if clears {
                mediaResolution = nil
            } else if let match = Self.mediaResolutions.first(where: { $0.0 == value.lowercased() }) {
                mediaResolution = match.1
            } else {
                throw invalid("low, medium, high or default")
            }
        default:
            preconditionFailure("not a generation setting: \(name)")
        }
    }

    /// The text `show NAME` prints for the setting (`default` when unset).
    func value(of name: String) -> String {
        switch name {
        case "top-p": topP.flatMap { JSONNumber($0)?.text } ?? "default"
        case "top-k": topK.map(String.init) ?? "default"
        case "seed": seed.map(String.init) ?? "default"
        case "stop": stop.map { $0.map(Self.shownWord).joined(separator: " ") } ?? "none"
        case "presence-penalty": presencePenalty.flatMap { JSONNumber($0)?.text } ?? "default"
        case "frequency-penalty": frequencyPenalty.flatMap { JSONNumber($0)?.text } ?? "default"
        case "safety":
            safety.isEmpty
                ? "default" : safety.map { "\($0.category)=\($0.threshold)" }.joined(separator: " ")
        case "response-modalities":
            responseModalities.map { $0.map { $0.lowercased() }.joined(separator: ",") } ?? "default"
        case "media-resolution":
            Self.mediaResolutions.first { $0.1 == mediaResolution }?.0 ?? "default"
        default: preconditionFailure("not a generation setting: \(name)")
        }
    }

    /// The values `set NAME` completes (for the words-valued settings).
    static func completions(for name: String) -> [String]? {
        switch name {
        case "media-resolution": mediaResolutions.map(\.0) + ["default"]
        case "response-modalities": ["text", "image", "audio", "text,image", "text,audio", "default"]
        case "stop": ["none"]
        case "safety": ["default"] + harmCategories.map { $0 + "=" }
        default: nil
        }
    }

    private static func number(
        _ value: String, in range: ClosedRange<Double>, orThrow error: CommandFailure
    ) throws -> Double {
        guard let number = Double(value), number.isFinite, range.contains(number) else { throw error }
        return number
    }

    private static func integer(_ value: String, in range: ClosedRange<Int>, orThrow error: CommandFailure)
        throws
        -> Int
    {
        guard let number = Int(value), range.contains(number) else { throw error }
        return number
    }

    /// `set stop SEQ...`: each word one sequence, at most 5 (the API's limit); `none` or
    /// `default` alone clears.
    private static func stopSequences(
        _ words: [String], invalid: (String, String) -> CommandFailure
    ) throws -> [String]? {
        if words.count == 1, ["none", "default"].contains(words[0].lowercased()) { return nil }
        if let empty = words.first(where: \.isEmpty) { throw invalid("non-empty stop sequences", empty) }
        guard words.count <= 5 else {
            throw CommandFailure(
                kind: .invalidSetting,
                message: "set stop: expected at most 5 stop sequences, got \(words.count)")
        }
        return words
    }

    /// `set safety CATEGORY=THRESHOLD...`: sets the categories named, keeping the others;
    /// `default` alone clears them all. Names are the API's, in any case.
    private static func safety(
        _ words: [String], merging current: [Safety], invalid: (String, String) -> CommandFailure
    ) throws -> [Safety] {
        if words.count == 1, words[0].lowercased() == "default" { return [] }
        var result = current
        for word in words {
            let pair = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { throw invalid("CATEGORY=THRESHOLD (or default)", word) }
            let category = pair[0].uppercased()
            let threshold = pair[1].uppercased()
            guard harmCategories.contains(category) else {
                var failure = invalid(
                    "a category (\(harmCategories.joined(separator: ", ")))", String(pair[0]))
                failure.message += ShellMessages.didYouMean(
                    Suggestions.closest(to: category, in: harmCategories).first)
                throw failure
            }
            guard thresholds.contains(threshold) else {
                throw invalid("a threshold (\(thresholds.joined(separator: ", ")))", String(pair[1]))
            }
            if let index = result.firstIndex(where: { $0.category == category }) {
                result[index].threshold = threshold
            } else {
                result.append(Safety(category: category, threshold: threshold))
            }
        }
        return result
    }

    /// `text,image` to `["TEXT", "IMAGE"]` (duplicates dropped); `default` to `nil`.
    private static func modalities(_ value: String, orThrow error: CommandFailure) throws -> [String]? {
        guard value.lowercased() != "default" else { return nil }
        let words = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        guard !words.isEmpty, words.allSatisfy({ ["TEXT", "IMAGE", "AUDIO"].contains($0) }) else {
            throw error
        }
        var unique: [String] = []
        for word in words where !unique.contains(word) { unique.append(word) }
        return unique
    }

    /// A stop sequence as `show` prints it: quoted when the shell would not read it back as
    /// one plain word.
    private static func shownWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.allSatisfy { $0.isLetter || $0.isNumber || "-_.,:;!?/+*@%^&=~".contains($0) }
        guard !plain else { return word }
        return "\""
            + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
