import SophonCore

/// A named group of shell commands (core, json, gemini, ...). `plugins` and `help` list
/// commands by plugin; the registry dispatches by command name.
protocol ShellPlugin: Sendable {
    /// The plugin's name as `plugins` shows it (`core`, `json`).
    var name: String { get }
    /// The commands it provides.
    var commands: [PluginCommand] { get }
}

/// How a command takes its arguments (PRODUCT.md §4, "Prompt-like arguments").
enum ArgumentStyle: Sendable, Equatable {
    /// Ordinary words: split on blanks, quotes and expansion applied.
    case words
    /// After the leading `--options`, the rest of the line is one raw argument.
    case raw
}

/// One command: its name, how it is used, and its handler.
struct PluginCommand: Sendable {
    /// The word that invokes it (`extract`).
    var name: String
    /// The usage line shown by `help` and in usage errors (`extract [--schema SPEC] [TEXT | @FILE]`).
    var usage: String
    /// A one-line summary for `help` and `--help`.
    var summary: String
    /// How the arguments are read.
    var argumentStyle: ArgumentStyle = .words
    /// Runs the command.
    var run: @Sendable (CommandRequest, CommandContext) async throws -> CommandResult
}

/// The arguments of one command as the dispatcher parsed them.
struct CommandRequest: Sendable {
    /// The command name.
    var name: String
    /// The arguments, one string per word (for `.raw` commands: the options, then the raw
    /// argument as the last element when there is one).
    var arguments: [String]
    /// The text as typed, for messages and `save`.
    var source: String
}

/// Where a command runs: one-command mode reads stdin as its input; scripts and the REPL do not.
enum RunMode: Sendable, Equatable {
    /// `sophon COMMAND ARGS...`: arguments come from the calling shell; stdin is input data.
    case oneCommand
    /// A script file, `-c` line or piped stdin.
    case script
    /// The interactive REPL.
    case interactive
}

/// What a running command may use.
struct CommandContext: Sendable {
    /// Standard streams.
    var io: ShellIO
    /// How the shell was started.
    var mode: RunMode
    /// The loaded plugins (for `help` and `plugins`).
    var registry: PluginRegistry
}

/// What a command produced.
enum CommandResult: Sendable, Equatable {
    /// A state change or a command that printed its own output.
    case none
    /// A JSON value: printed by the shell in the current output format, and becomes `$last`.
    case value(JSONValue)
}

/// A command failure with a kind for `--json` (`{"error": {"kind": ..., "message": ...}}`).
struct CommandFailure: Error, Sendable, Equatable {
    /// lowerCamelCase name of the error (`usage`, `noJSONFound`, `unknownCommand`).
    var kind: String
    /// One readable line, without the `error: ` prefix.
    var message: String
}
