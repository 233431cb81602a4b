import Foundation
import SophonCore

/// The REPL (docs/language.md, "The REPL"): banner, prompt, continuation prompt, history,
/// Tab completion, Ctrl-C cancelling the running command, Ctrl-D exiting 0.
enum InteractiveLoop {
    /// Runs the REPL on standard input until end of input or `exit`; returns the exit status.
    static func run(runtime shared: ShellRuntime, useHistory: Bool) async -> Int32 {
        var history = useHistory ? HistoryFile(path: SophonPaths().historyFile.path) : nil
        if let path = history?.path, let problem = ImplicitFile.problem(path, role: "history file") {
            // A FIFO would block the load forever, /dev/zero would never end (docs/files.md, "history").
            shared.io.printError(ShellMessages.warning(problem + "; running without history"))
            history = nil
        }
        let completion = CompletionProvider(
            registry: shared.registry, externalPlugins: shared.externalPlugins)
        let source = LineReaderFactory.makeStandardInput(
            mode: LineReaderFactory.currentMode(), historyFile: history,
            completer: { line, cursor in completion.complete(line: line, cursor: cursor) })
        defer { source.close() }
        // Ctrl-\ at the prompt: ignored, as interactive shells do (by default it would end the
        // process with a crash report).
        signal(SIGQUIT, SIG_IGN)
        let secrets = SecretInput(source: source)
        let runtime = ShellRuntime(
            registry: shared.registry, session: shared.session, io: shared.io, mode: .interactive,
            readSecret: { prompt in secrets.read(prompt: prompt) },
            readAnswer: { prompt in secrets.answer(prompt: prompt) },
            externalPlugins: shared.externalPlugins)
        runtime.io.printError(banner(runtime))
        let parser = runtime.parser
        let reader = CommandReader(source: source) { parser.inputStatus(of: $0) == .needsContinuation }
        var warnedAboutHistory = false
        while true {
            switch reader.read() {
            case .endOfInput:
                return ShellExitStatus.success
            case .interrupted:
                continue
            case .command(let text):
                if !ResultPrinter.holdsSecret(text) {  // `key set VALUE`: never in history.
                    do {
                        try source.record(text)
                    } catch {
                        if !warnedAboutHistory {
                            runtime.io.printError(ShellMessages.warning("history: \(error)"))
                        }
                        warnedAboutHistory = true
                    }
                }
                let flow: ShellRuntime.Flow
                do {
                    flow = try await SignalMonitor.run {
                        await runtime.run(ShellSource(name: "<interactive>", text: text), directory: ".")
                    }
                } catch {
                    runtime.io.printError(ShellMessages.interrupted)
                    continue
                }
                if case .stop(let status) = flow { return status ?? ShellExitStatus.success }
            }
        }
    }

    /// One line: name, version, the plugins' notes (the model, whether a key is set), and the
    /// `help` hint.
    static func banner(_ runtime: ShellRuntime) -> String {
        let notes = runtime.registry.bannerNotes(runtime.session).map { " · " + $0 }.joined()
        return "\(HelpText.version)\(notes) · type 'help'"
    }
}

/// Reads `key set`'s secret and the answers to a command's questions (a served tool's
/// consent) from the REPL's line source.
///
/// `@unchecked Sendable`: the line source is not thread-safe, but the REPL never reads a line
/// while a command runs, and the callers (`key set`, the consent prompt) run inside that
/// command, one question at a time, so the source is never used from two places at once.
private final class SecretInput: @unchecked Sendable {
    private let source: any LineSource

    init(source: any LineSource) { self.source = source }

    func read(prompt: String) -> String? {
        guard case .line(let text) = source.readSecret(prompt: prompt) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func answer(prompt: String) -> String? {
        guard case .line(let text) = source.readAnswer(prompt: prompt) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
