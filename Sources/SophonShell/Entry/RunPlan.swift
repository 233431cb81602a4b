/// How one `sophon` run goes, by its mode (REPL, scripts and `-c`, one command, piped stdin):
/// every mode builds one runtime, runs `sophonrc`, then reads its own input.
struct RunPlan {
    /// Where the commands come from after `sophonrc`.
    enum Input {
        /// `sophon COMMAND ARGS...`.
        case command(name: String, arguments: [String])
        /// Script files and `-c` lines with the folder each resolves against; then the REPL
        /// when `-i` was given.
        case sources([(ShellSource, String)], thenInteractive: Bool)
        /// The REPL on a terminal.
        case interactive
        /// A script piped to stdin.
        case standardInput
    }

    /// When Ctrl-C ends the process instead of cancelling one command.
    enum ExitOnInterrupt: Equatable {
        case beforeStartupFile
        case afterStartupFile
        case never
    }

    /// A script file that cannot be read: a usage error.
    struct LoadError: Error {
        var path: String
        var error: ScriptFile.LoadError
    }

    var input: Input
    var mode: RunMode
    var exitOnInterrupt: ExitOnInterrupt
    /// How `key set` reads its secret.
    var readSecret: @Sendable (String) -> String? = ShellRuntime.readLineFromStandardInput

    /// The plan for `invocation`, with its script files read.
    init(_ invocation: Invocation) throws(LoadError) {
        switch invocation.action {
        case .version, .help, .completions, .manPage, .commandsMarkdown:
            // Answered before any plan is made; nothing to run.
            (input, mode, exitOnInterrupt) = (.sources([], thenInteractive: false), .script, .never)
        case .oneCommand(let name, let arguments):
            (input, mode, exitOnInterrupt) = (
                .command(name: name, arguments: arguments), .oneCommand, .beforeStartupFile
            )
        case .scripts(let scripts):
            var sources: [(ShellSource, String)] = []
            for script in scripts {
                switch script {
                case .line(let text, let index):
                    if let bytes = invocation.invalidUTF8Argument(decodedAs: text) {
                        sources.append((ShellSource(name: "-c:\(index)", bytes: bytes), "."))
                    } else {
                        sources.append((ShellSource(name: "-c:\(index)", text: text), "."))
                    }
                case .file(let path):
                    do {
                        sources.append((try ScriptFile.load(path), ScriptFile.directory(of: path)))
                    } catch {
                        throw LoadError(path: path, error: error)
                    }
                }
            }
            input = .sources(sources, thenInteractive: invocation.stayInteractive)
            mode = .script
            exitOnInterrupt = invocation.stayInteractive ? .never : .afterStartupFile
        case .standardInput where LineReaderFactory.currentMode() != .nonInteractive:
            (input, mode, exitOnInterrupt) = (.interactive, .interactive, .never)
        case .standardInput:
            (input, mode, exitOnInterrupt) = (.standardInput, .script, .beforeStartupFile)
            readSecret = ShellRuntime.readNextScriptLine
        }
    }
}
