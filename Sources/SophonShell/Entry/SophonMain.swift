import Foundation
import SophonCore

/// The `sophon` process: parses the command line, then dispatches (docs/commands.md).
package enum SophonMain {
    /// Clears the signal mask the calling thread inherited: a parent that blocks SIGINT (a test
    /// runner's worker thread, some supervisors) passes its mask on. Call first, on the main
    /// thread: it lives as long as the process, so SIGINT and the other signals the shell
    /// handles always have a thread to arrive on (a pool thread that unblocked them may end,
    /// and Ctrl-C was then never delivered).
    package static func unblockSignals() {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
    }

    /// Runs `sophon` with `arguments` (without the program name) and returns the exit status.
    /// - Parameter rawArguments: the same arguments as bytes, when known: a `-c` line that is
    ///   not valid UTF-8 then fails with its location instead of running repaired.
    package static func run(arguments: [String], rawArguments: [[UInt8]] = [], io: ShellIO) async -> Int32 {
        FatalSignals.install()
        let registry = PluginRegistry.standard()
        let commandNames = Set(registry.commandNames)
        let plugins = ExternalPluginHost(builtInNames: registry.commandNames, stderr: io.stderr)
        var invocation: Invocation
        do {
            let isCommand = { (word: String) in commandNames.contains(word) || plugins.isPluginName(word) }
            invocation = try Invocation.parse(arguments, isCommand: isCommand)
            if let word = await plugins.commandWordAmongScripts(invocation) {
                invocation = try Invocation.parse(arguments, isCommand: { isCommand($0) || $0 == word })
            }
        } catch {
            return usageError(error.message, io: io)
        }
        invocation.rawArguments = rawArguments
        switch invocation.action {
        case .version:
            io.printLine(HelpText.version)
            return ShellExitStatus.success
        case .help:
            io.stdout.write(HelpText.usage(registry))
            return ShellExitStatus.success
        case .completions(let shell):
            io.stdout.write(CompletionScript(outline: CommandOutline(registry)).text(for: shell))
            return ShellExitStatus.success
        case .manPage:
            io.stdout.write(ManPage.text(registry))
            return ShellExitStatus.success
        case .commandsMarkdown:
            io.stdout.write(ManPage.commandsMarkdown(registry))
            return ShellExitStatus.success
        default:
            break
        }
        do {
            try registry.start(
                PluginRunOptions(
                    verbose: invocation.verbose, recordTape: invocation.recordTape,
                    replayTape: invocation.replayTape, model: invocation.model, noLog: invocation.noLog),
                io: io)
        } catch {
            return usageError(error.message, io: io)
        }
        let status = await runStarted(invocation, registry: registry, plugins: plugins, io: io)
        guard let tape = invocation.recordTape else { return status }
        return RecordedTape.finish(tape, status: status, io: io)
    }

    /// Runs an invocation whose plugins started: the startup file, then the input.
    private static func runStarted(
        _ invocation: Invocation, registry: PluginRegistry, plugins: ExternalPluginHost, io: ShellIO
    ) async -> Int32 {
        let plan: RunPlan
        do {
            plan = try RunPlan(invocation)
        } catch {
            return usageError(scriptError(error.path, error.error, registry: registry), io: io)
        }
        if plan.exitOnInterrupt == .beforeStartupFile { InterruptSignal.installExitOnInterrupt() }
        let runtime = makeRuntime(
            invocation, registry: registry, plugins: plugins, io: io, mode: plan.mode,
            readSecret: plan.readSecret)
        if invocation.continueConversation, let status = ConversationResume.atStart(runtime) { return status }
        if case .stop(let status) = await runStartupFile(invocation, runtime: runtime) {
            if case .interactive = plan.input { return status ?? ShellExitStatus.success }
            return runtime.finish(exitStatus: status)
        }
        if plan.exitOnInterrupt == .afterStartupFile { InterruptSignal.installExitOnInterrupt() }
        return await run(plan.input, runtime: runtime, useHistory: invocation.useHistory)
    }

    /// Runs the mode-specific input of a run whose runtime is set up and whose `sophonrc` ran.
    private static func run(_ input: RunPlan.Input, runtime: ShellRuntime, useHistory: Bool) async -> Int32 {
        switch input {
        case .command(let name, let arguments):
            if runtime.session.settings.echo, runtime.session.settings.output != .json {
                // `sophon --echo COMMAND ARGS`: the transcript line, as for a script's commands.
                runtime.io.printLine(
                    "sophon> " + ResultPrinter.shown(([name] + arguments).joined(separator: " ")))
            }
            guard let parsed = runtime.parser.command(fromArguments: [name] + arguments) else {
                return ShellExitStatus.usage
            }
            let request = CommandRequest(
                name: name, arguments: parsed.arguments.compactMap(\.literalText),
                rawArgument: parsed.rawArgument?.literalText, parsed: parsed,
                source: ([name] + arguments).joined(separator: " "))
            let flow = await runtime.runOneCommand(request)
            if case .stop(let status) = flow { return runtime.finish(exitStatus: status) }
            return runtime.finish()
        case .sources(let sources, let thenInteractive):
            for (source, directory) in sources {
                if case .stop(let status) = await runtime.run(source, directory: directory) {
                    return runtime.finish(exitStatus: status)
                }
            }
            guard thenInteractive else { return runtime.finish() }
            return await InteractiveLoop.run(runtime: runtime, useHistory: useHistory)
        case .interactive:
            return await InteractiveLoop.run(runtime: runtime, useHistory: useHistory)
        case .standardInput:
            if let descriptor = runtime.io.inputDescriptor, StandardInputScript.arrivesOverTime(descriptor) {
                return await runArriving(
                    StandardInputScript(descriptor: descriptor, parser: runtime.parser), runtime)
            }
            let data: Data
            do { data = try runtime.io.readAllInput() } catch {
                runtime.io.printError(ShellMessages.commandLine(error.message))
                return runtime.finish(exitStatus: ShellExitStatus.failure)
            }
            guard data.count <= ScriptFile.maximumLength else {
                // The limit of a script file (docs/files.md), also for a script on stdin.
                return usageError(
                    "'<stdin>' is larger than \(ScriptFile.maximumLength) bytes", io: runtime.io)
            }
            guard !data.prefix(ScriptFile.binaryProbeLength).contains(0) else {
                // A script on stdin is a script file: a NUL byte in its first 8 KiB makes it
                // binary, refused before anything runs (`sophon < tool`).
                return usageError("'<stdin>' is not a text file", io: runtime.io)
            }
            let source = ShellSource(name: "<stdin>", bytes: Array(data))
            if case .stop(let status) = await runtime.run(source, directory: ".") {
                return runtime.finish(exitStatus: status)
            }
            return runtime.finish()
        }
    }

    /// Runs a script piped to stdin as it arrives, each command as soon as it is complete
    /// (``StandardInputScript``); a binary input, a command past the size limit or a failed
    /// read stops the run with its message.
    private static func runArriving(_ script: StandardInputScript, _ runtime: ShellRuntime) async -> Int32 {
        let session = runtime.session
        let cursor = CommandCursor([]) {
            // A Ctrl-C while waiting for the next command ends the run as one during a command
            // does: with the closing tally when expectations were evaluated.
            let (passed, failed, format) = session.withState { ($0.passed, $0.failed, $0.settings.output) }
            guard passed + failed > 0 else { return script.nextCommands() }
            InterruptSignal.setExitLine(
                ResultPrinter.tallyLine(passed: passed, failed: failed, format: format) + "\n")
            defer { InterruptSignal.setExitLine(nil) }
            return script.nextCommands()
        }
        let flow = await runtime.run(cursor, sourceName: StandardInputScript.name, directory: ".")
        if case .stop(let status) = flow { return runtime.finish(exitStatus: status) }
        guard let failure = script.failure else { return runtime.finish() }
        runtime.io.printError(ShellMessages.commandLine(failure.message))
        return runtime.finish(exitStatus: failure.exitStatus)
    }

    /// The runtime for this invocation, with the plugins' defaults and the command-line flags
    /// applied to the session.
    private static func makeRuntime(
        _ invocation: Invocation, registry: PluginRegistry, plugins: ExternalPluginHost, io: ShellIO,
        mode: RunMode, readSecret: @escaping @Sendable (String) -> String?
    ) -> ShellRuntime {
        var settings = ShellSettings()
        settings.bail = invocation.bail
        settings.echo = invocation.echo
        if invocation.json { settings.output = .json }
        let session = ShellSession(settings: settings)
        registry.configure(session)
        if invocation.allowTools { session.withToolState { $0.allowedByRun = true } }
        return ShellRuntime(
            registry: registry, session: session, io: io, mode: mode,
            readSecret: readSecret, externalPlugins: plugins)
    }

    /// Runs `sophonrc` unless `--no-rc`; its commands are not kept for `save`, its errors read
    /// `sophonrc:LINE: error: ...` and change neither the exit status nor the tally.
    /// - Returns: how the run goes on (only Ctrl-C in the rc file ends it; `exit` is refused).
    private static func runStartupFile(_ invocation: Invocation, runtime: ShellRuntime) async
        -> ShellRuntime.Flow
    {
        guard invocation.runRC else { return .next }
        if case .oneCommand(let name, _) = invocation.action,
            runtime.registry.command(named: name)?.readsStartupFile == false
        {
            return .next
        }
        let path = SophonPaths().rcFile.path
        if let problem = ImplicitFile.problem(path, role: "sophonrc") {
            // Read without being asked: a FIFO must not hold up start-up (docs/files.md).
            runtime.io.printError(ShellMessages.warning(problem + "; not running it"))
            return .next
        }
        guard FileManager.default.fileExists(atPath: path) else { return .next }
        do {
            let source = try ScriptFile.load(path, name: "sophonrc")
            return await runtime.runStartupFile(source, directory: ScriptFile.directory(of: path))
        } catch {
            runtime.io.printError(ShellMessages.commandLine("sophonrc: \(error.message)"))
            return .next
        }
    }

    private static func scriptError(_ path: String, _ error: ScriptFile.LoadError, registry: PluginRegistry)
        -> String
    {
        guard error.message.hasSuffix("no such file") else { return error.message }
        if registry.command(named: path) != nil {
            // `sophon -c 'LINE' echo hi`: a command word after a script or `-c` is read as a file.
            return "'\(path)' is not a file; a command runs alone, as the first word: sophon \(path) ARGS..."
        }
        let suggestion = Suggestions.closest(to: path, in: registry.commandNames).first
        return "'\(path)' is neither a command nor a file"
            + ShellMessages.didYouMean(suggestion)
    }

    private static func usageError(_ message: String, io: ShellIO) -> Int32 {
        io.printError(ShellMessages.commandLine(message))
        if message.hasPrefix("unknown option") || message.hasPrefix("option") {
            io.printError(ShellMessages.seeHelp)
        }
        return ShellExitStatus.usage
    }
}

extension PluginRegistry {
    /// The registry with the built-in plugins: core (with `test` of Plugins/Testing), json,
    /// gemini (which ``start(_:io:)`` gives the run's services), tools (which sends through
    /// gemini's services) and logs. Built here, at the entry, so the plugin contract in
    /// Plugins/ names none of the plugins on top.
    static func standard() -> PluginRegistry {
        var registry = PluginRegistry()
        registry.register(CorePlugin(more: [TestCommand.definition]))
        registry.register(JSONPlugin())
        let gemini = GeminiPlugin()
        registry.register(gemini)
        registry.register(ToolsPlugin(gemini: gemini))
        registry.register(BulkPlugin(gemini: gemini))
        registry.register(LogPlugin())
        registry.register(PromptPlugin(gemini: gemini))
        registry.register(EmbeddingsPlugin(gemini: gemini))
        registry.register(ComparePlugin(gemini: gemini))
        return registry
    }
}
