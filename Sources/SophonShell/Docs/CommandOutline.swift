import Foundation

/// What the command table says about completing each command's first two arguments, read once
/// from the registry so the completion scripts and the man page are generated from it
/// (docs/commands.md, "Completion").
struct CommandOutline: Sendable {
    /// What a shell completes at one argument position.
    enum Candidates: Sendable, Equatable {
        /// Nothing.
        case none
        /// File paths.
        case files
        /// These words.
        case words([String])
        /// These words (subcommands) and file paths (`prompt FILE | prompt render FILE`).
        case wordsAndFiles([String])

        /// The words offered, with or without files; `nil` for none or files alone.
        var words: [String]? {
            switch self {
            case .none, .files: nil
            case .words(let words), .wordsAndFiles(let words): words
            }
        }
    }

    /// One command of the table.
    struct Command: Sendable {
        /// The command word (`set`).
        var name: String
        /// Its one-line summary.
        var summary: String
        /// What its first argument completes to.
        var first: Candidates
        /// What its second argument completes to, by the first argument's word (`set model`).
        var second: [(word: String, candidates: Candidates)]
        /// Its declared options, every spelling (`--jobs`, `-j`): what a word starting with `-`
        /// completes to.
        var options: [String] = []
    }

    /// The commands in plugin and declaration order (a name taken twice keeps its first owner).
    var commands: [Command]
    /// The model names `--model` completes to.
    var models: [String]
    /// The setting names `set` and `show` take.
    var settings: [String]
    /// The command-line flags of ``HelpText/flags`` (`--model`), plus `-c` and `-i` of the
    /// usage lines.
    var flags: [String]
    /// The flags that take a value (`--model ID`, `-c LINE`).
    var valueFlags: [String]

    /// Reads the outline of `registry`.
    init(_ registry: PluginRegistry) {
        var seen: Set<String> = []
        var commands: [Command] = []
        for plugin in registry.plugins {
            for command in plugin.commands where seen.insert(command.name).inserted {
                var first = Self.resolve(command.completion, earlier: [], registry: registry)
                let subcommands = Self.subcommands(command.name, usage: command.usage)
                if !subcommands.isEmpty {
                    // A command whose first word is a subcommand or a file offers both.
                    if first == .none { first = .words(subcommands) }
                    if first == .files { first = .wordsAndFiles(subcommands) }
                }
                var second: [(word: String, candidates: Candidates)] = []
                if let words = first.words {
                    for word in words {
                        let candidates = Self.resolve(command.completion, earlier: [word], registry: registry)
                        if candidates != .none { second.append((word, candidates)) }
                    }
                }
                commands.append(
                    Command(
                        name: command.name, summary: command.summary, first: first, second: second,
                        options: command.options.flatMap(\.spellings)))
            }
        }
        self.commands = commands
        self.models = registry.optionValues("--model") ?? []
        self.settings = registry.settingNames
        let flags = HelpText.flags.flatMap(\.spellings)
        let valueFlags = ["-c"] + HelpText.flags.filter { $0.value != nil }.flatMap(\.spellings)
        self.flags = flags + ["-c", "-i"]
        self.valueFlags = valueFlags
    }

    /// The candidates of `completion` after the argument words `earlier`; words that a shell
    /// would split or quote are left out.
    private static func resolve(_ completion: ArgumentCompletion, earlier: [String], registry: PluginRegistry)
        -> Candidates
    {
        switch completion {
        case .none: return .none
        case .files: return .files
        case .words(let words):
            let plain = words.filter { word in
                !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_.:/=".contains($0) }
            }
            return plain.isEmpty ? .none : .words(plain)
        case .custom(let choose):
            return resolve(choose(earlier, registry), earlier: earlier, registry: registry)
        }
    }

    /// The subcommand words of a usage line: the lowercase word starting each of its
    /// ` | `-separated forms, after the command's own name (`batch submit INPUT | list | status
    /// NAME` gives `submit list status`; `files | files show NAME` gives `show`). What Tab and
    /// the completion scripts offer as the first argument of a command that completes nothing
    /// else there.
    static func subcommands(_ name: String, usage: String) -> [String] {
        forms(name, usage: usage).reduce(into: []) { words, form in
            for word in form.subcommands where !words.contains(word) { words.append(word) }
        }
    }

    /// The subcommand words of a command none of whose forms takes another word first
    /// (`key set | show | delete | path`, `agent status|wait|cancel|show ID`, `collections
    /// [--json] | collections delete NAME`); empty when a form starts with an operand such as
    /// `FILE` (`prompt FILE | prompt save FILE`), whose first word may be anything. The shell
    /// answers a first word near one of these with "did you mean" before the command runs.
    static func strictSubcommands(_ name: String, usage: String) -> [String] {
        let forms = forms(name, usage: usage)
        guard forms.allSatisfy({ $0.firstOperand == nil || !$0.subcommands.isEmpty }) else { return [] }
        return subcommands(name, usage: usage)
    }

    /// One ` | `-separated form of a usage line: its subcommand words (`status|wait` gives
    /// both), and whether its first word past the options is something else (`FILE`).
    private struct Form {
        var subcommands: [String] = []
        var firstOperand: String?
    }

    /// The forms of `usage`: split at each ` | ` outside brackets (`(TEXT | @FILE...)` is one
    /// operand of its form).
    private static func forms(_ name: String, usage: String) -> [Form] {
        var texts: [String] = [""]
        var depth = 0
        var rest = Substring(usage)
        while let character = rest.first {
            if depth == 0, rest.hasPrefix(" | ") {
                texts.append("")
                rest = rest.dropFirst(3)
                continue
            }
            if "([".contains(character) { depth += 1 }
            if ")]".contains(character) { depth = max(0, depth - 1) }
            texts[texts.count - 1].append(character)
            rest = rest.dropFirst()
        }
        return texts.map { text in
            // Optional parts (`[--model ID]`, `[NAME]`) never stand first in the words typed.
            var required = ""
            var optional = 0
            for character in text {
                if character == "[" { optional += 1 }
                if optional == 0 { required.append(character) }
                if character == "]" { optional = max(0, optional - 1) }
            }
            var tokens = required.split(separator: " ").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "()"))
            }
            if tokens.first == name { tokens.removeFirst() }
            var form = Form()
            guard let word = tokens.first(where: { !$0.hasPrefix("-") && !$0.isEmpty }) else { return form }
            let words = word.split(separator: "|").map(String.init)
            if tokens.first == word,
                words.allSatisfy({ word in
                    word.first?.isLowercase == true && word.allSatisfy { $0.isLowercase || $0 == "-" }
                })
            {
                form.subcommands = words
            } else {
                form.firstOperand = word
            }
            return form
        }
    }
}
