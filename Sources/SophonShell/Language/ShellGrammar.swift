/// What the parser needs to know about commands: which take a raw argument, and how.
struct ShellGrammar: Sendable {
    /// Prompt-like commands by name, with how their leading options are read.
    var rawCommands: [String: RawArgumentSpec]
    /// The name of the assignment command (`let`), whose rules are in ``LetAssignment``.
    var assignmentCommand: String

    /// Creates a grammar.
    init(rawCommands: [String: RawArgumentSpec] = [:], assignmentCommand: String = "let") {
        self.rawCommands = rawCommands
        self.assignmentCommand = assignmentCommand
    }

    /// The prompt-like commands of docs/commands.md: `ask`, `chat`, `tokens`, `schema` and
    /// `extract`, with the options that take a value (`--model ID`, `--schema SPEC`).
    static let standard = ShellGrammar(rawCommands: [
        "ask": RawArgumentSpec(valueOptions: ["--model"]),
        "chat": RawArgumentSpec(valueOptions: ["--model"]),
        "tokens": RawArgumentSpec(valueOptions: ["--model"]),
        "schema": RawArgumentSpec(wordKeywords: ["show", "clear"], wordPrefixes: ["@"]),
        "extract": RawArgumentSpec(valueOptions: ["--schema"], wordPrefixes: ["@"]),
    ])
}

/// How a prompt-like command's line is read.
///
/// After the command name come leading options: words starting with `--`, read as ordinary
/// words. `--name=value` carries its value; an option in ``valueOptions`` takes the next word
/// as its value (which may be quoted: `--schema '{ a: string }'`); `--` alone ends the options
/// and is dropped. What follows is the raw argument (``ShellLexer/lexRawArgument()``) — unless
/// its first blank-separated piece is one of ``wordKeywords`` or starts with one of
/// ``wordPrefixes``, in which case the rest of the line is ordinary words
/// (`schema show gemini`, `schema @person.json`, `extract @reply.txt`).
struct RawArgumentSpec: Sendable, Equatable {
    /// Options that take a value, spelled with their dashes: `--model`.
    var valueOptions: Set<String>
    /// First words that make the rest of the line ordinary words: `show`, `clear`.
    var wordKeywords: Set<String>
    /// Prefixes of a first word that make the rest ordinary words: `@` (a file).
    var wordPrefixes: [String]
    /// Whether one name before the raw argument is an ordinary word (`tool NAME SPEC`,
    /// `tool-reply NAME JSON`): a first piece made of letters, digits, `_ : . -` (starting with
    /// a letter or `_`), taken only when more text follows it on the line.
    var leadingName = false

    /// Creates a spec.
    init(
        valueOptions: Set<String> = [], wordKeywords: Set<String> = [], wordPrefixes: [String] = [],
        leadingName: Bool = false
    ) {
        self.valueOptions = valueOptions
        self.wordKeywords = wordKeywords
        self.wordPrefixes = wordPrefixes
        self.leadingName = leadingName
    }

    /// Whether a first piece of argument text makes the line ordinary words.
    func selectsWords(_ piece: String) -> Bool {
        wordKeywords.contains(piece) || wordPrefixes.contains { !$0.isEmpty && piece.hasPrefix($0) }
    }

    /// Whether `piece` may be the leading name (see ``leadingName``).
    static func isName(_ piece: String) -> Bool {
        guard let first = piece.unicodeScalars.first,
            ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_"
        else { return false }
        return piece.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "_:.-".unicodeScalars.contains($0)
        }
    }
}
