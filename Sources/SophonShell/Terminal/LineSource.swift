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
