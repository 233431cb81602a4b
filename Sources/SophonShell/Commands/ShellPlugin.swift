import SophonCore

/// A named group of shell commands (core, json, gemini, ...). `plugins` and `help` list
/// commands by plugin; the registry dispatches by command name.
protocol ShellPlugin: Sendable {
    /// The plugin's name as `plugins` shows it (`core`, `json`).
    var name: String { get }
    /// The commands it provides.
    var commands: [PluginCommand] { get }
    /// Prepares the plugin for a run with the command line's `options`, before any command
    /// runs; a failure is a usage error (exit 2).
    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError)
    /// Sets the plugin's defaults in a new session (a saved model, the language of errors),
    /// before any command runs.
    func configure(_ session: ShellSession)
    /// `set NAME WORDS...` for a setting the plugin owns; `nil` when it does not own `name`.
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult?
    /// `show NAME` for a report the plugin owns (`show usage`); `nil` when it does not own `name`.
    func show(_ name: String, context: CommandContext) -> CommandResult?
    /// Parts of the REPL banner after the model (`API key set`).
    func bannerNotes(_ session: ShellSession) -> [String]
    /// The values Tab offers after `OPTION` (`--model`) in any command; `nil` when the plugin
    /// has none.
    func optionValues(_ option: String) -> [String]?
    /// The settings the plugin owns (its ``set(_:_:context:)`` and ``show(_:context:)`` answer
    /// them), registered in the one settings table: `show` lists them, Tab after `set` offers
    /// them and their values.
    var settings: [SettingDefinition] { get }
    /// The names `show NAME` accepts beyond the settings (`usage`).
    var reportNames: [String] { get }
    /// `expect valid`: whether `$last` is valid by the plugin's rules (the schema); `nil`
    /// when the plugin does not check validity.
    func expectValid(context: CommandContext) -> ExpectOutcome?
    /// The `expect` operators the plugin adds (`similar`, `judge`): `expect A OP WORDS...`.
    var expectOperators: [String] { get }
    /// Evaluates `expect LEFT OP RIGHT...` for one of ``expectOperators``; `right` holds the
    /// words after OP, each expanded on its own.
    /// - Throws: ``CommandFailure`` when the check cannot be made (it counts as a failed
    ///   expectation).
    func expect(_ op: String, left: ExpectOperand, right: [String], context: CommandContext) async throws
        -> ExpectOutcome
    /// Whether `plugin load` may skip the plugin file at `path`, which is not there, because
    /// its calls are answered without it (a tape replay answers them from the tape).
    func answersCalls(ofMissingPlugin path: String) -> Bool
}

extension ShellPlugin {
    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {}
    func configure(_ session: ShellSession) {}
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? { nil }
    func show(_ name: String, context: CommandContext) -> CommandResult? { nil }
    func bannerNotes(_ session: ShellSession) -> [String] { [] }
    func expectValid(context: CommandContext) -> ExpectOutcome? { nil }
    var expectOperators: [String] { [] }
    func expect(_ op: String, left: ExpectOperand, right: [String], context: CommandContext) async throws
        -> ExpectOutcome
    {
        .failed(message: "unknown operator '\(op)'")
    }
    func answersCalls(ofMissingPlugin path: String) -> Bool { false }
    func optionValues(_ option: String) -> [String]? { nil }
    var settings: [SettingDefinition] { [] }
    var reportNames: [String] { [] }
}

/// What the command line tells the plugins about the run.
struct PluginRunOptions: Sendable {
    /// `--verbose`.
    var verbose = false
    /// `--record-tape FILE`.
    var recordTape: String?
    /// `--replay-tape FILE`.
    var replayTape: String?
    /// `--model ID`.
    var model: String?
    /// `--no-log`: exchanges are not logged (docs/logs.md).
    var noLog = false
}

/// Why a plugin cannot start: a usage error before anything runs.
struct PluginStartError: Error {
    var message: String
}

/// How a command takes its arguments (docs/language.md, "Prompt-like commands").
enum ArgumentStyle: Sendable, Equatable {
    /// Ordinary words: split on blanks, quotes and expansion applied.
    case words
    /// After the leading `--options`, the rest of the line is one raw argument.
    case raw(RawArgumentSpec)
}

/// One command: its name, how it is used, and its handler.
struct PluginCommand: Sendable {
    /// The word that invokes it (`extract`).
    var name: String
    /// The usage line shown by `help` and in usage errors (`extract [--schema SPEC] [TEXT | @FILE]`).
    var usage: String
    /// A one-line summary for `help` and `--help`.
    var summary: String
    /// The options it takes (parsed by ``CommandOption/parse(_:as:declared:)``, suggested by
    /// "did you mean", completed by Tab, listed by `help COMMAND` and the man page).
    var options: [CommandOption] = []
    /// How the arguments are read.
    var argumentStyle: ArgumentStyle = .words
    /// Whether the shell expands the words before running the command; `false` leaves
    /// ``CommandRequest/arguments`` empty and the command expands ``CommandRequest/parsed``
    /// itself (`expect`, whose expansion errors count as failed expectations).
    var expandsArguments = true
    /// Whether `sophon NAME ...` (one-command mode) runs `sophonrc` first; `false` for commands
    /// whose output must not depend on it (`test`).
    var readsStartupFile = true
    /// What Tab offers for its arguments.
    var completion: ArgumentCompletion = .none
    /// Whether `--json` among its words prints this one command as `sophon --json` prints every
    /// command (docs/prompts.md: `prompt --json FILE`); the shell takes the word out before
    /// ``run`` sees it. Declare the option in ``options`` too, for help and completion.
    var takesJSONFlag = false
    /// Runs the command.
    var run: @Sendable (CommandRequest, CommandContext) async throws -> CommandResult
}

/// The arguments of one command as the dispatcher parsed and expanded them.
struct CommandRequest: Sendable {
    /// The command name.
    var name: String
    /// The words after the name, expanded (for `.raw` commands: the leading options).
    var arguments: [String]
    /// The raw argument of a prompt-like command, expanded; `nil` when absent.
    var rawArgument: String?
    /// The command as parsed, before expansion (`let` and `expect` need the words' values).
    var parsed: ShellCommand?
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
    /// The runtime running the command: session, plugins, streams.
    var runtime: any CommandHost
    /// The folder relative paths in the command resolve against: the folder of the script
    /// holding the command, or the current directory for interactive, `-c` and stdin input.
    var directory: String
    /// How many `source` levels deep the command is (0 at the top).
    var depth: Int

    /// Standard streams.
    var io: ShellIO { runtime.io }
    /// How the shell was started.
    var mode: RunMode { runtime.mode }
    /// The loaded plugins (for `help` and `plugins`).
    var registry: PluginRegistry { runtime.registry }
    /// The session's state.
    var session: ShellSession { runtime.session }

    /// The usage error of command `name`: `usage: ` and the usage line of its definition (what
    /// `help` shows), then `hint` in parentheses.
    func usageFailure(_ name: String, hint: String? = nil) -> CommandFailure {
        let usage = registry.command(named: name)?.usage ?? name
        return CommandFailure(kind: .usage, message: ShellMessages.usage(usage, hint: hint))
    }

    /// `path` resolved against ``directory`` unless it is absolute.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") || directory.isEmpty || directory == "." ? path : directory + "/" + path
    }
}

/// What Tab offers for a command's arguments (part of the command's definition).
enum ArgumentCompletion: Sendable {
    /// Nothing.
    case none
    /// File paths.
    case files
    /// These words.
    case words([String])
    /// Chosen by the argument words before the cursor (without the command name) and the
    /// loaded plugins.
    case custom(@Sendable (_ earlier: [String], _ registry: PluginRegistry) -> ArgumentCompletion)
}

/// What happens after a command.
enum CommandFlow: Sendable, Equatable {
    /// Go on with the next command.
    case next
    /// End the whole run: `exit [N]` (`nil`: computed) or `--bail` after a failure.
    case stop(Int32?)
}
