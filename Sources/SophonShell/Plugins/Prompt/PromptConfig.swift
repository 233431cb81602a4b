import Foundation
import SophonCore
import SophonGemini
import SophonPrompt

/// A prompt file's frontmatter `config` as the generation config `prompt FILE`, `run --prompt`
/// and `compare --prompts` send (docs/prompts.md). Each value is checked by the rule `set`
/// uses for the same setting (``GeminiSettings``: `temperature` 0...2, `topP` 0...1, ...), so a
/// file cannot send what `set` would refuse; a bad value is an error at its place in the file.
/// `prompt render` prints `config` as written, as Dotprompt does.
enum PromptConfig {
    /// The Dotprompt `config` keys that are sent, and the `set` names whose rules check them
    /// (``GenerationSettings/fieldSettings``).
    static let settings: [(key: String, setting: String)] = [
        "temperature", "maxOutputTokens", "topP", "topK", "stopSequences", "seed", "presencePenalty",
        "frequencyPenalty",
    ].map { ($0, GenerationSettings.fieldSettings[$0] ?? $0) }

    /// The generation config of `document`'s `config` (nothing set when it has none). Other
    /// `config` keys are Dotprompt's to keep (`prompt render` prints them) and are not sent.
    /// - Throws: ``PromptError`` (`.config`) at the value's line and column:
    ///   `config.temperature: expected a number in 0...2, got 'hot'`, `config: expected a
    ///   mapping of settings, got '0.5'`, `config.stopSequences: expected a list of strings, got 'END'`,
    ///   `config.temperature: expected a number, got '.nan' (not a number; JSON cannot send it)`.
    ///   A whole number written as a float (`maxOutputTokens: 1e2`) is that whole number;
    ///   `null` (`~`, nothing) leaves the setting unset.
    static func generation(of document: PromptDocument) throws(PromptError) -> GenerationConfig {
        // No `config`, or an empty one (`config:` with its lines commented out, `config: ~`).
        guard let config = document.metadata.last(where: { $0.key == "config" })?.value, config != .null
        else {
            return GenerationConfig()
        }
        guard case .object(let members) = config else {
            throw error("config", "expected a mapping of settings", got: config, in: document)
        }
        var checked = GeminiSettings()
        var stop: [String]?
        for (key, setting) in settings {
            guard let value = members.last(where: { $0.key == key })?.value else { continue }
            let name = "config.\(key)"
            let written = document.written(at: ["config", key]).map(withoutAnchor)
            guard value != .null else {
                // `null`, `~` or nothing leaves the setting unset; `.nan` reads as `null` too
                // (JSON has no NaN) but is a value the file gives that cannot be sent.
                if let written, [".nan", ".NaN", ".NAN"].contains(written) {
                    throw located(
                        "\(name): expected a number, got '\(written)' (not a number; JSON cannot send it)",
                        in: document, key: key)
                }
                continue
            }
            let words: [String]
            switch (setting, value) {
            case ("stop", .array(let items)):
                guard !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                    let expectation =
                        items.isEmpty ? "expected a list of 1 to 5 strings" : "expected a list of strings"
                    throw error(name, expectation, got: value, in: document, key: key)
                }
                words = items.compactMap(\.stringValue)
                stop = words  // as written: `set stop none` would read a lone "none" as no stop
            case ("stop", _):
                throw error(name, "expected a list of strings", got: value, in: document, key: key)
            case (_, .number(let number)):
                words = [Self.wholeSettings.contains(setting) ? whole(number) ?? number.text : number.text]
            default:
                throw error(name, "expected a number", got: value, in: document, key: key)
            }
            do {
                try checked.set(setting, words: words)
            } catch let failure as CommandFailure {
                // The rule's own words, without `set NAME: ` (the file names the key).
                var message = failure.message.replacingOccurrences(of: "set \(setting): ", with: "")
                if case .number = value, let written, let word = words.first {
                    // The value as the file writes it (`.inf`, not `1e999`).
                    message = message.replacingOccurrences(of: "got '\(word)'", with: "got '\(written)'")
                }
                throw located(name + ": " + message, in: document, key: key)
            } catch {
                throw located("\(name): \(error)", in: document, key: key)
            }
        }
        var generation = GenerationConfig()
        generation.temperature = checked.temperature
        generation.maxOutputTokens = checked.maxTokens
        generation.topP = checked.generation.topP
        generation.topK = checked.generation.topK
        generation.stopSequences = stop
        generation.seed = checked.generation.seed
        generation.presencePenalty = checked.generation.presencePenalty
        generation.frequencyPenalty = checked.generation.frequencyPenalty
        return generation
    }

    /// The `set` settings that take a whole number (`maxOutputTokens`, `topK`, `seed`).
    static let wholeSettings: Set<String> = ["max-tokens", "top-k", "seed"]

    /// A number with no fraction, however the file writes it (`1e2`, `100.0`: the YAML core
    /// schema's floats, which Dotprompt's JavaScript reads as the number 100), as the whole
    /// number's text (`100`); `nil` for a fraction or a number beyond 2^53.
    static func whole(_ number: JSONNumber) -> String? {
        let value = number.doubleValue
        guard value.isFinite, value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else {
            return nil
        }
        return String(Int(value))
    }

    /// A scalar's text without its anchor (`&a .nan` is `.nan`).
    private static func withoutAnchor(_ text: String) -> String {
        guard text.hasPrefix("&"), let space = text.firstIndex(where: \.isWhitespace) else { return text }
        return text[space...].trimmingCharacters(in: .whitespaces)
    }

    /// `NAME: EXPECTATION, got 'VALUE'` at the value's place.
    private static func error(
        _ name: String, _ expectation: String, got value: JSONValue, in document: PromptDocument,
        key: String? = nil
    ) -> PromptError {
        if let text = value.stringValue, JSONNumber(text: text) != nil {
            // `temperature: "0.5"`: a number in quotes is a string in YAML.
            return located("\(name): \(expectation), got the quoted string '\(text)'", in: document, key: key)
        }
        let shown = value.stringValue ?? value.compactText
        return located("\(name): \(expectation), got '\(shown)'", in: document, key: key)
    }

    /// `message` at the place of `config.KEY` (of `config` without a key; 1:1 when unknown).
    private static func located(_ message: String, in document: PromptDocument, key: String?) -> PromptError {
        let place =
            key.flatMap { document.locations[["config", $0]] } ?? document.locations[["config"]]
            ?? PromptLocation(line: 1, column: 1)
        return PromptError(.config, message, file: document.file, line: place.line, column: place.column)
    }
}
