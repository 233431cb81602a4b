/// One option a command (or the `sophon` command line) takes, declared with it: the one table
/// the option parser, "did you mean", `help`, the man page and the completion scripts read
/// (docs/commands.md).
struct CommandOption: Sendable, Equatable {
    /// `--json` among a command's own words: the command prints as `sophon --json` prints it
    /// (``PluginCommand/takesJSONFlag``; docs/commands.md: every new command takes `--json`).
    static let json = CommandOption(
        name: "--json", help: "print this command as --json does: one JSON object on one line")

    /// The long spelling with its dashes (`--jobs`); a short-only option has its short one.
    var name: String
    /// Other spellings (`-j`, `-o`).
    var aliases: [String] = []
    /// What the value is called (`N`, `FILE`); `nil` for a flag without a value.
    var value: String?
    /// One line of help.
    var help: String
    /// What the usage error says is missing after the option (`a number`: `run: --jobs needs a
    /// number`); `nil` gives `CMD: option '--jobs' needs a value`.
    var missing: String?
    /// Whether the option may be given again (``Repetition``); an option given more often than
    /// that is a usage error (``OptionError/repeated(_:)``).
    var repetition = Repetition.once
    /// The words Tab offers for the value in the REPL (`embed --model`: the embedding models);
    /// `nil`: what the plugins offer for an option of that name (``ShellPlugin/optionValues(_:)``).
    var values: [String]? = nil

    /// How often an option may be given.
    enum Repetition: Sendable, Equatable {
        /// Once: `--json --json` or `--jobs 2 --jobs 3` is a slip, never a second meaning.
        case once
        /// Again after an operand: an option whose value applies to the operands after it
        /// (`attach --mime TYPE a.bin --mime TYPE b.bin`).
        case perOperand
        /// Any number of times, each a value of its own in order (`sophon -c LINE -c LINE`).
        case any
    }

    /// Every spelling: the name, then the aliases.
    var spellings: [String] { [name] + aliases }

    /// The option as a help row names it: `--model ID`, `--no-rc, -X`.
    var synopsis: String {
        spellings.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }
}

/// The options and operands found in a command's words by ``CommandOption/parse(_:as:declared:)``.
struct ParsedOptions: Sendable, Equatable {
    /// Each option given, by its declared name, with its value (`""` for a flag), in order.
    var given: [Given] = []
    /// The words that are not options, in order.
    var operands: [String] = []
    /// The operand that ended the options by the parser's `endsOptions` and every word after
    /// it, as given (`sophon --json ask --model m hi`: `ask --model m hi`); empty otherwise.
    var rest: [String] = []

    /// One option as given.
    struct Given: Sendable, Equatable {
        /// The declared name (`--jobs` for `-j`).
        var name: String
        /// The spelling typed (`-j`).
        var spelling: String
        /// The value; `""` for a flag.
        var value: String
        /// How many operands came before it (where it stands among them: `attach --mime TYPE`
        /// applies to the files after it).
        var operandsBefore = 0
    }

    /// Whether option `name` was given.
    func has(_ name: String) -> Bool { given.contains { $0.name == name } }
    /// The last value given for option `name`.
    func value(_ name: String) -> String? { given.last { $0.name == name }?.value }
    /// The last value given for option `name` before operand `index`.
    func value(_ name: String, beforeOperand index: Int) -> String? {
        given.last { $0.name == name && $0.operandsBefore <= index }?.value
    }
}

/// Why a command's words do not fit its declared options: a usage error.
enum OptionError: Error, Equatable {
    /// A word that looks like an option and is none of the declared ones (the word, with the
    /// declared names to suggest from).
    case unknown(String, among: [String])
    /// A value option at the end of the words, as spelled there (`-o`).
    case missingValue(CommandOption, spelling: String)
    /// An option given a second time, as spelled there: `--json --json` or `--jobs 2 --jobs 3`
    /// is a slip, never a second meaning (unless its ``CommandOption/repetition`` allows it).
    case repeated(String)

    /// The message of command `command` (`run: unknown option '--lvie' (did you mean
    /// '--live'?)`); `nil` gives the command-line wording, without a prefix.
    func message(command: String?) -> String {
        let prefix = command.map { $0 + ": " } ?? ""
        switch self {
        case .unknown(let word, let names):
            return prefix + ShellMessages.unknownOption(word, among: names)
        case .missingValue(let option, let spelling):
            guard let missing = option.missing else { return prefix + "option '\(spelling)' needs a value" }
            return prefix + "\(spelling) needs \(missing)"
        case .repeated(let spelling):
            return prefix + "option '\(spelling)' is given twice"
        }
    }

    /// The usage failure of command `command`.
    func failure(command: String) -> CommandFailure {
        CommandFailure(kind: .usage, message: message(command: command))
    }
}

extension CommandOption {
    /// How option words are read.
    enum Layout: Sendable {
        /// Options anywhere among the operands; `--` ends them (`test`, `run`).
        case interleaved
        /// Options first; the first operand ends them (`ask`, `extract`).
        case leading
    }

    /// Reads `words` by the options `declared`: `--name VALUE`, `--name=VALUE`, flags; a word
    /// starting with `-` (but not `-` alone) is an option. The one option parser of the shell
    /// and of the `sophon` command line.
    /// - Parameter endsOptions: whether an operand, met before `--`, ends the words this parse
    ///   reads (the command word of `sophon --json ask hi`): it and the words after it go to
    ///   ``ParsedOptions/rest`` unread.
    /// - Throws: ``OptionError`` for an undeclared option (a flag given `=VALUE` is one), a
    ///   value option without its value, or an option given more often than its
    ///   ``repetition`` allows (by any of its spellings).
    static func parse(
        _ words: [String], as layout: Layout = .interleaved, declared: [CommandOption],
        endsOptions: (_ operand: String, _ parsed: ParsedOptions) -> Bool = { _, _ in false }
    ) throws(OptionError) -> ParsedOptions {
        var parsed = ParsedOptions()
        var index = 0
        var ended = false
        while index < words.count {
            let word = words[index]
            index += 1
            if !ended, !word.hasPrefix("-") || word == "-", endsOptions(word, parsed) {
                parsed.rest = Array(words[(index - 1)...])
                break
            }
            if ended || !word.hasPrefix("-") || word == "-" {
                parsed.operands.append(word)
                if layout == .leading { ended = true }
                continue
            }
            if word == "--" {
                ended = true
                continue
            }
            let equals = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
            let spelling = equals.map { String(word[..<$0]) } ?? word
            let inline = equals.map { String(word[word.index(after: $0)...]) }
            guard let option = declared.first(where: { $0.spellings.contains(spelling) }),
                option.value != nil || inline == nil
            else {
                throw .unknown(word, among: declared.flatMap(\.spellings).filter { $0.hasPrefix("--") })
            }
            if let earlier = parsed.given.last(where: { $0.name == option.name }) {
                switch option.repetition {
                case .once: throw .repeated(spelling)
                case .perOperand where earlier.operandsBefore == parsed.operands.count:
                    throw .repeated(spelling)
                case .perOperand, .any: break
                }
            }
            guard option.value != nil else {
                parsed.given.append(
                    .init(
                        name: option.name, spelling: spelling, value: "",
                        operandsBefore: parsed.operands.count))
                continue
            }
            guard let value = inline ?? (index < words.count ? words[index] : nil) else {
                throw .missingValue(option, spelling: spelling)
            }
            if inline == nil { index += 1 }
            parsed.given.append(
                .init(
                    name: option.name, spelling: spelling, value: value, operandsBefore: parsed.operands.count
                ))
        }
        return parsed
    }

    /// The option spellings (a value option's with its value) that `word` may complete to
    /// after a command: Tab after `-`.
    static func completions(_ word: String, declared: [CommandOption]) -> [String] {
        declared.flatMap(\.spellings).filter { $0.hasPrefix("--") && $0.hasPrefix(word) }
    }
}

extension CommandOption {
    /// The options and operands of `request`'s words (its name dropped when first), read by
    /// `declared` with ``parse(_:as:declared:)``.
    /// - Throws: ``CommandFailure`` (`usage`) worded for `command`.
    static func parse(_ request: CommandRequest, command: String, declared: [CommandOption]) throws
        -> ParsedOptions
    {
        var words = request.arguments
        if words.first == request.name { words.removeFirst() }
        do {
            return try parse(words, declared: declared)
        } catch {
            throw error.failure(command: command)
        }
    }
}
