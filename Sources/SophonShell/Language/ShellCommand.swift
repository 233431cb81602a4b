/// One command as parsed, before expansion.
struct ShellCommand: Sendable, Hashable {
    /// The words: the command name first. For a prompt-like command: the name, its options
    /// and option values (or every word when the spec selected ordinary words). For `let`:
    /// `let`, `NAME`, `=`.
    var words: [ShellWord]
    /// The raw argument of a prompt-like command; `nil` when absent or not prompt-like.
    var rawArgument: ShellWord?
    /// The assignment of a `let` command; `nil` for other commands.
    var assignment: LetAssignment?

    /// Creates a command.
    init(words: [ShellWord], rawArgument: ShellWord? = nil, assignment: LetAssignment? = nil) {
        self.words = words
        self.rawArgument = rawArgument
        self.assignment = assignment
    }

    /// The command name: the first word's text when it has no expansion, else `nil`.
    var name: String? { words.first?.literalText }

    /// The words after the name.
    var arguments: ArraySlice<ShellWord> { words.dropFirst() }
}

/// One command of a source: where it is, how it was typed, and the command or its parse error.
struct ParsedCommand: Sendable, Equatable {
    /// The first physical line of the command (1-based): the line of runtime errors.
    var line: Int
    /// The command as typed, from its first word to the end of its last physical line,
    /// trailing blanks removed (comments and continuation lines included). For `save`,
    /// `--echo` and `--json`'s `"command"`.
    var text: String
    /// The command, or the first syntax error in it.
    var result: Result<ShellCommand, ShellSyntaxError>
}

/// Whether typed input is a complete command or needs more lines.
enum ShellInputStatus: Sendable, Equatable {
    /// Ready to run (possibly with a syntax error to report).
    case complete
    /// The input ends inside a quote, a `"""` block or after a trailing backslash: the REPL
    /// shows its continuation prompt `   ...> ` and appends the next line.
    case needsContinuation
}
