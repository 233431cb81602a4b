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
                let first = Self.resolve(command.completion, earlier: [], registry: registry)
                var second: [(word: String, candidates: Candidates)] = []
                if case .words(let words) = first {
                    for word in words {
                        let candidates = Self.resolve(command.completion, earlier: [word], registry: registry)
                        if candidates != .none { second.append((word, candidates)) }
                    }
                } else if first == .none {
                    // A command whose first argument is a fixed word (`plugins load FILE`).
                    for word in Self.subcommandWords(command.usage) {
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

    /// The lowercase words of a usage line's first argument (`plugins [load FILE | ...]` gives
    /// `load`), the fixed words a custom completion may expect before its second argument.
    private static func subcommandWords(_ usage: String) -> [String] {
        usage.split(whereSeparator: { " []|".contains($0) }).dropFirst().map(String.init).filter { word in
            word.allSatisfy { $0.isLowercase || $0 == "-" }
        }
    }
}
