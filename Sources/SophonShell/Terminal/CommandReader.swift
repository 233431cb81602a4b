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
