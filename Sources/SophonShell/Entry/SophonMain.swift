import Foundation
import SophonCore
import SophonGemini

/// The `sophon` process: parses the command line, then dispatches (PRODUCT.md §4).
package enum SophonMain {
    /// Exit statuses (PRODUCT.md §4).
    enum ExitStatus {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 2
        static let interrupted: Int32 = 130
    }

    /// Runs `sophon` with `arguments` (without the program name) and returns the exit status.
    package static func run(arguments: [String], io: ShellIO) async -> Int32 {
        let commandNames = Set(PluginRegistry.standard(gemini: nil).commandNames)
        let plugins = ExternalPluginHost(builtInNames: commandNames.sorted(), stderr: io.stderr)
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
        switch invocation.action {
        case .version:
            io.printLine(HelpText.version)
            return ExitStatus.success
        case .help:
            io.stdout.write(HelpText.usage(.standard(gemini: nil)))
            return ExitStatus.success
        default:
            break
        }
        if let model = invocation.model, !GeminiModel.isWellFormedID(GeminiModel(selection: model).id) {
            return usageError("--model: '\(model)' is not a valid model ID", io: io)
        }
        let services: GeminiServices
        do {
            services = try GeminiServices(
                options: .init(
                    verbose: invocation.verbose, recordTape: invocation.recordTape,
                    replayTape: invocation.replayTape),
                io: io)
        } catch {
            return usageError(error.message, io: io)
        }
        let registry = PluginRegistry.standard(gemini: services)
        switch invocation.action {
        case .version, .help:
            return ExitStatus.success
        case .oneCommand(let name, let arguments):
            InterruptSignal.installExitOnInterrupt()
            let runtime = makeRuntime(
                invocation, registry: registry, plugins: plugins, io: io, mode: .oneCommand)
            if case .stop(let status) = await runStartupFile(invocation, runtime: runtime) {
                return runtime.finish(exitStatus: status)
            }
            guard let parsed = runtime.parser.command(fromArguments: [name] + arguments) else {
                return ExitStatus.usage
            }
            let request = CommandRequest(
                name: name, arguments: parsed.arguments.compactMap(\.literalText),
                rawArgument: parsed.rawArgument?.literalText, parsed: parsed,
                source: ([name] + arguments).joined(separator: " "))
            let flow = await runtime.runOneCommand(request)
            if case .stop(let status) = flow { return runtime.finish(exitStatus: status) }
            return runtime.finish()
        case .scripts(let scripts):
            var sources: [(ShellSource, String)] = []
            for script in scripts {
                switch script {
                case .line(let text, let index):
                    sources.append((ShellSource(name: "-c:\(index)", text: text), "."))
                case .file(let path):
                    do {
                        sources.append((try ScriptFile.load(path), ScriptFile.directory(of: path)))
                    } catch {
                        return usageError(scriptError(path, error, registry: registry), io: io)
                    }
                }
            }
            let runtime = makeRuntime(invocation, registry: registry, plugins: plugins, io: io, mode: .script)
            if case .stop(let status) = await runStartupFile(invocation, runtime: runtime) {
                return runtime.finish(exitStatus: status)
            }
            if !invocation.stayInteractive { InterruptSignal.installExitOnInterrupt() }
            for (source, directory) in sources {
                if case .stop(let status) = await runtime.run(source, directory: directory) {
                    return runtime.finish(exitStatus: status)
                }
            }
            guard invocation.stayInteractive else { return runtime.finish() }
            return await InteractiveLoop.run(runtime: runtime, useHistory: invocation.useHistory)
        case .standardInput where LineReaderFactory.currentMode() != .nonInteractive:
            let runtime = makeRuntime(
                invocation, registry: registry, plugins: plugins, io: io, mode: .interactive)
            if case .stop(let status) = await runStartupFile(invocation, runtime: runtime) {
                return status ?? ExitStatus.success
            }
            return await InteractiveLoop.run(runtime: runtime, useHistory: invocation.useHistory)
        case .standardInput:
            InterruptSignal.installExitOnInterrupt()
            let runtime = makeRuntime(
                invocation, registry: registry, plugins: plugins, io: io, mode: .script,
                readSecret: ShellRuntime.readNextScriptLine)
            if case .stop(let status) = await runStartupFile(invocation, runtime: runtime) {
                return runtime.finish(exitStatus: status)
            }
            let data = io.readAllInput()
            let source = ShellSource(name: "<stdin>", bytes: Array(data))
            if case .stop(let status) = await runtime.run(source, directory: ".") {
                return runtime.finish(exitStatus: status)
            }
            return runtime.finish()
        }
    }

    /// The runtime for this invocation, with the command-line flags applied to the session.
    private static func makeRuntime(
        _ invocation: Invocation, registry: PluginRegistry, plugins: ExternalPluginHost, io: ShellIO,
        mode: RunMode,
        readSecret: @escaping @Sendable (String) -> String? = ShellRuntime.readLineFromStandardInput
    ) -> ShellRuntime {
        var settings = ShellSettings()
        settings.bail = invocation.bail
        settings.echo = invocation.echo
        if invocation.json { settings.output = .json }
        let services = registry.plugins.lazy.compactMap { ($0 as? GeminiPlugin)?.services }.first
        if let saved = services.flatMap({
            JSONFileGeminiModelStore(fileURL: $0.paths.settingsFile).loadSelection()
        }) {
            settings.model = GeminiModel(selection: saved).id
        }
        if let model = invocation.model { settings.model = GeminiModel(selection: model).id }
        return ShellRuntime(
            registry: registry, session: ShellSession(settings: settings), io: io, mode: mode,
            gemini: services, readSecret: readSecret, externalPlugins: plugins)
    }

    /// Runs `sophonrc` unless `--no-rc`; its commands are not kept for `save`.
    /// - Returns: how the run goes on (`exit` in the rc file ends it).
    private static func runStartupFile(_ invocation: Invocation, runtime: ShellRuntime) async
        -> ShellRuntime.Flow
    {
        guard invocation.runRC else { return .next }
        let path = SophonPaths().rcFile.path
        guard FileManager.default.fileExists(atPath: path) else { return .next }
        do {
            let source = try ScriptFile.load(path)
            return await runtime.run(source, directory: ScriptFile.directory(of: path), recorded: false)
        } catch {
            runtime.io.printError("sophon: sophonrc: \(error.message)")
            return .next
        }
    }

    private static func scriptError(_ path: String, _ error: ScriptFile.LoadError, registry: PluginRegistry)
        -> String
    {
        guard error.message.hasSuffix("no such file") else { return error.message }
        let suggestion = Suggestions.closest(to: path, in: registry.commandNames).first
        return "'\(path)' is neither a command nor a file"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }

    private static func usageError(_ message: String, io: ShellIO) -> Int32 {
        io.printError("sophon: \(message)")
        if message.hasPrefix("unknown option") || message.hasPrefix("option") {
            io.printError("see 'sophon --help'")
        }
        return ExitStatus.usage
    }
}
