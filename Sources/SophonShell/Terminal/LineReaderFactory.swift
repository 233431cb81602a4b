import Foundation

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
