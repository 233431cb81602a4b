import Foundation

/// What one read from a ``LineSource`` produced.
enum LineInput: Equatable, Sendable {
    /// A line, without its line ending (`\n` or `\r\n`). A history entry recalled in the
    /// editor may hold several lines joined by `\n` (a multi-line command is one entry).
    case line(String)
    /// Ctrl-C at the prompt: the line being edited was dropped. The REPL drops any pending
    /// continuation block and prompts again.
    case interrupted
    /// No more input: end of file, or Ctrl-D on an empty line. The REPL ends (status 0).
    case endOfInput
}

/// Where the shell's command lines come from: a terminal line editor, or a pipe or file.
/// The REPL and script runner only see this protocol, so tests feed them lines directly.
///
/// Sources are used from one task at a time (they block while waiting for input).
protocol LineSource: AnyObject {
    /// Reads the next line, showing `prompt` first when the source is interactive.
    /// - Parameter prompt: `sophon> `, or `   ...> ` while a quote or `"""` block is open
    ///   (the caller chooses); ignored by non-interactive sources.
    /// - Returns: a line, `.interrupted` or `.endOfInput`.
    func readLine(prompt: String) -> LineInput

    /// Reads one line that must not be shown or kept (an API key): on a terminal, with echo
    /// off, never entering history; otherwise the next input line, as ``readLine(prompt:)``.
    /// - Parameter prompt: e.g. `API key: `; shown on terminals only.
    /// - Returns: the line, `.interrupted` after Ctrl-C, or `.endOfInput`.
    func readSecret(prompt: String) -> LineInput

    /// Reads one answer to a question a running command asks (the consent prompt of a served
    /// tool, docs/commands.md "Tools"): shown as typed, never entering history. A Ctrl-C there
    /// interrupts the running command (``InterruptSignal/interruptRunningCommand()``).
    /// - Parameter prompt: e.g. `run get_time {} ? [y]es / [n]o / [a]lways `.
    /// - Returns: the line, `.interrupted` after Ctrl-C, or `.endOfInput`.
    func readAnswer(prompt: String) -> LineInput

    /// Records an entered command in the source's history (in memory, and on disk when the
    /// source has a ``HistoryFile``). Blank commands and commands starting with a space are
    /// skipped. Non-interactive sources ignore it.
    /// - Parameter entry: the whole command as entered; several lines for a block.
    /// - Throws: `HistoryFileError` when the history file cannot be written; the entry
    ///   stays in memory regardless.
    func record(_ entry: String) throws(HistoryFileError)

    /// Releases the source and restores the terminal as it was found (idempotent).
    func close()
}

extension LineSource {
    /// By default an answer is read like a command line.
    func readAnswer(prompt: String) -> LineInput { readLine(prompt: prompt) }

    /// Non-interactive sources keep no history.
    func record(_ entry: String) throws(HistoryFileError) {}

    /// Nothing to release by default.
    func close() {}
}

/// Reads whole commands from a ``LineSource``: one line, or several while a quote or a `"""`
/// block is open (the parser decides), with the REPL's two prompts (docs/language.md).
///
/// - Ctrl-C drops the line being edited and any pending block: `.interrupted`.
/// - End of input at the main prompt: `.endOfInput`. Inside a block: the incomplete text is
///   returned as a command, so the parser reports the unterminated block; the next read
///   then ends.
/// - A recalled history entry holding several lines counts as those lines.
///
/// Recording in history is left to the caller, which knows what must not be kept.
struct CommandReader {
    /// The prompt for a new command.
    static let prompt = "sophon> "
    /// The prompt while a quote or `"""` block is open.
    static let continuationPrompt = "   ...> "

    /// What ``read()`` produced.
    enum Input: Equatable {
        /// A whole command: its lines joined with `\n`, without a final newline.
        case command(String)
        /// Ctrl-C: nothing to run; prompt again.
        case interrupted
        /// No more input.
        case endOfInput
    }

    /// Where lines come from.
    let source: any LineSource
    /// Whether the text so far leaves a quote or `"""` block open (more lines needed).
    let needsMoreLines: (String) -> Bool

    /// Creates a reader.
    /// - Parameters:
    ///   - source: the line source (editor, plain terminal, pipe).
    ///   - needsMoreLines: from the parser: true while the command text is incomplete.
    init(source: any LineSource, needsMoreLines: @escaping (String) -> Bool) {
        self.source = source
        self.needsMoreLines = needsMoreLines
    }

    /// Reads the next whole command.
    func read() -> Input {
        var pending: [String] = []
        while true {
            let prompt = pending.isEmpty ? Self.prompt : Self.continuationPrompt
            switch source.readLine(prompt: prompt) {
            case .interrupted:
                return .interrupted
            case .endOfInput:
                return pending.isEmpty ? .endOfInput : .command(pending.joined(separator: "\n"))
            case .line(let line):
                pending.append(line)
                let text = pending.joined(separator: "\n")
                if !needsMoreLines(text) { return .command(text) }
            }
        }
    }
}

/// Chooses the ``LineSource`` for standard input and sets up SIGINT to match.
///
/// | standard input | standard output | `TERM`            | source                              | SIGINT |
/// |----------------|-----------------|-------------------|-------------------------------------|--------|
/// | terminal       | terminal        | set, not `dumb`   | ``EditLineReader``                  | `.interrupted` / cancels the command |
/// | terminal       | any             | `dumb` or unset   | ``PlainLineReader`` with a prompt   | same |
/// | terminal       | not a terminal  | any               | ``PlainLineReader``, prompt on stderr | same |
/// | not a terminal | any             | any               | ``PlainLineReader``, no prompt      | exit 130 |
enum LineReaderFactory {
    /// How standard input will be read.
    enum Mode: Equatable {
        /// libedit line editing.
        case editor
        /// A terminal without line editing: plain prompt, no escape sequences.
        case plainTerminal
        /// A pipe or file: no prompt, no banner.
        case nonInteractive
    }

    /// Decides the mode from the terminal state and the environment.
    /// - Parameters:
    ///   - inputIsTerminal: `isatty(STDIN_FILENO)`.
    ///   - outputIsTerminal: `isatty(STDOUT_FILENO)`.
    ///   - environment: the process environment (`TERM` is read).
    static func mode(inputIsTerminal: Bool, outputIsTerminal: Bool, environment: [String: String]) -> Mode {
        guard inputIsTerminal else { return .nonInteractive }
        let term = environment["TERM"] ?? ""
        guard outputIsTerminal, !term.isEmpty, term != "dumb" else { return .plainTerminal }
        return .editor
    }

    /// The mode for this process's standard input and output.
    static func currentMode(environment: [String: String] = ProcessInfo.processInfo.environment) -> Mode {
        mode(
            inputIsTerminal: isatty(STDIN_FILENO) == 1, outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            environment: environment)
    }

    /// Creates the line source for standard input and installs the matching SIGINT
    /// handling (``InterruptSignal``).
    /// - Parameters:
    ///   - mode: from ``currentMode(environment:)``; `.nonInteractive` for scripts.
    ///   - historyFile: for interactive modes; nil with `--no-history`.
    ///   - completer: Tab completion for the editor.
    /// - Returns: the source; an editor that fails to start falls back to a plain terminal
    ///   reader.
    static func makeStandardInput(mode: Mode, historyFile: HistoryFile?, completer: LineCompleter?)
        -> any LineSource
    {
        switch mode {
        case .nonInteractive:
            InterruptSignal.installExitOnInterrupt()
            return PlainLineReader()
        case .editor:
            if let editor = EditLineReader(historyFile: historyFile, completer: completer) {
                return editor
            }
            return plainTerminal(historyFile: historyFile)
        case .plainTerminal:
            return plainTerminal(historyFile: historyFile)
        }
    }

    /// Prompts go to stdout on a terminal, else to stderr, so that `sophon > results.txt`
    /// typed at a terminal keeps prompts out of the results.
    private static func plainTerminal(historyFile: HistoryFile?) -> PlainLineReader {
        InterruptSignal.installInteractiveHandler()
        let output = FileDescriptorSink(
            descriptor: isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : STDERR_FILENO)
        return PlainLineReader(
            promptSink: { output.write($0) }, interruptible: true, historyFile: historyFile)
    }
}
