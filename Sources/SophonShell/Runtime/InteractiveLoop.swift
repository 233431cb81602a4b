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
                return Self.status(nil, runtime)
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
                if case .stop(let status) = flow { return Self.status(status, runtime) }
            }
        }
    }

    /// The status the REPL ends with, after the run's closing tally when an `expect` was
    /// evaluated (once per run, the REPL's and the scripts' before it): `exit N`'s, else 1 when
    /// a command of the scripts run before it (`sophon -i FILE`) failed, else 0; interactive
    /// errors never count (docs/language.md).
    private static func status(_ requested: Int32?, _ runtime: ShellRuntime) -> Int32 {
        runtime.finish(exitStatus: requested)
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

/// Tab completion for the REPL (docs/plugin-protocol.md): command names, file paths after
/// `@`, option values the plugins offer (`--model`), a command's declared options after `-`,
/// each command's own completion, else its subcommands (``CommandOutline/subcommands(_:usage:)``).
struct CompletionProvider: Sendable {
    let registry: PluginRegistry
    /// External plugins: their command names and static argument completions.
    var externalPlugins: ExternalPluginHost?
    /// The folder relative paths complete in (the current directory).
    var directory = FileManager.default.currentDirectoryPath

    /// Candidates for the word before the cursor: see ``LineCompleter``.
    func complete(line: String, cursor: Int) -> [String] {
        let typed = CompletionWord(textBeforeCursor: String(line.prefix(cursor)))
        let word = typed.value
        let earlier = typed.earlier
        if word.hasPrefix("@") {
            return files(matching: String(word.dropFirst())).map { "@" + $0 }
        }
        guard let command = earlier.first else {
            let external = externalPlugins?.completionNames() ?? []
            return Array(Set(registry.commandNames + external)).filter { $0.hasPrefix(word) }.sorted()
        }
        if let words = externalPlugins.flatMap({ ExternalPluginCompletion.words(command, earlier, host: $0) })
        {
            return words.filter { $0.hasPrefix(word) }
        }
        if let option = earlier.last,
            let values = registry.command(named: command)?.options.first(where: {
                $0.spellings.contains(option)
            })?
            .values ?? registry.optionValues(option)
        {
            return values.filter { $0.hasPrefix(word) }
        }
        if earlier.last == "--models", let models = registry.optionValues("--model") {
            // A comma-separated list (`--models A,B`): the name after the last comma.
            let head = word.lastIndex(of: ",").map { String(word[...$0]) } ?? ""
            let listed = Set(head.split(separator: ",").map(String.init))
            return models.filter { !listed.contains($0) && (head + $0).hasPrefix(word) }.map { head + $0 }
        }
        if word.hasPrefix("-"), let options = registry.command(named: command)?.options, !options.isEmpty {
            return CommandOption.completions(word, declared: options)
        }
        let definition = registry.command(named: command)?.completion ?? .none
        let found = candidates(definition, earlier: Array(earlier.dropFirst()), word: word)
        guard earlier.count == 1, let usage = registry.command(named: command)?.usage else { return found }
        // The first word: the subcommands too (`batch st` gives `status`), before any files
        // (`prompt s` gives `save` and `story.prompt`), as the generated scripts offer them.
        let subcommands = CommandOutline.subcommands(command, usage: usage).filter { $0.hasPrefix(word) }
        if case .files = definition { return subcommands + found }
        return found.isEmpty ? subcommands : found
    }

    /// The candidates for `word` by a command's completion definition.
    private func candidates(_ completion: ArgumentCompletion, earlier: [String], word: String) -> [String] {
        switch completion {
        case .none: []
        case .files: files(matching: word)
        case .words(let words): words.filter { $0.hasPrefix(word) }
        case .custom(let choose): candidates(choose(earlier, registry), earlier: earlier, word: word)
        }
    }

    /// Paths starting with `prefix` (relative to ``directory`` unless absolute or `~/`);
    /// folders end in `/`. Hidden files only when the prefix names a dot.
    func files(matching prefix: String) -> [String] {
        let expanded = prefix.hasPrefix("~/") ? NSHomeDirectory() + prefix.dropFirst() : prefix
        let slash = expanded.lastIndex(of: "/")
        let folderPart = slash.map { String(expanded[...$0]) } ?? ""
        let namePart = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        let folder = folderPart.hasPrefix("/") ? folderPart : directory + "/" + folderPart
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let typedFolder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + name, isDirectory: &isDirectory)
                return typedFolder + name + (isDirectory.boolValue ? "/" : "")
            }
    }
}
