import SophonCore
import Testing

@testable import SophonShell

/// Shared helpers for the language tests.
enum LanguageTesting {
    static let parser = ShellParser(grammar: .standard, parseJSON: ShellParser.strictJSON)

    static func parse(_ text: String, name: String = "test.sophon") -> [ParsedCommand] {
        parser.parse(ShellSource(name: name, text: text))
    }

    /// The one command of `text`, or `nil` when there is not exactly one that parsed.
    static func command(_ text: String) -> ShellCommand? {
        let commands = parse(text)
        guard commands.count == 1, case .success(let command) = commands[0].result else { return nil }
        return command
    }

    /// The one error of `text` as `LINE:COL: MESSAGE`, or a note saying what happened instead.
    static func error(_ text: String) -> String {
        let commands = parse(text)
        let failures = commands.compactMap { command -> ShellSyntaxError? in
            if case .failure(let error) = command.result { return error }
            return nil
        }
        guard let failure = failures.first else { return "no error (\(commands.count) commands)" }
        return "\(failure.line):\(failure.column): \(failure.message)"
    }

    /// A word as a readable, exact string: parts joined by ` + `, literals as JSON strings,
    /// references as written; prefixed with `quoted ` or `block `.
    static func render(_ word: ShellWord) -> String {
        let prefix = word.isBlock ? "block " : word.isQuoted ? "quoted " : ""
        let parts = word.parts.map { part in
            switch part {
            case .literal(let text): JSONValue.string(text).compactText
            case .expansion(let reference): reference.description
            }
        }
        return prefix + (parts.isEmpty ? "(empty)" : parts.joined(separator: " + "))
    }

    /// The words of the one command in `text`, rendered; `["<error ...>"]` when it failed.
    static func renderedWords(_ text: String) -> [String] {
        guard let command = command(text) else { return ["<error \(error(text))>"] }
        return command.words.map(render)
    }

    /// An expander over a fixed set of variables.
    static func expander(_ variables: [String: JSONValue]) -> ShellExpander {
        ShellExpander { variables[$0] }
    }
}
