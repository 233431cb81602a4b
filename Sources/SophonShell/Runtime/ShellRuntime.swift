import Foundation
import SophonCore

/// Runs commands against one session: parsing, expansion, dispatch to plugins, printing,
/// error locations, `--bail`, `exit` and the closing tally (docs/commands.md).
final class ShellRuntime: CommandHost, PluginHosting, ToolServers {
    /// What happens after a command.
    typealias Flow = CommandFlow

    let registry: PluginRegistry
    /// The external plugins, consulted when no built-in command has the name.
    let externalPlugins: ExternalPluginHost
    /// The MCP servers (`mcp.json` and `mcp add`), started when their tools are first needed.
    let mcpServers: MCPServerRegistry?
    let session: ShellSession
    let io: ShellIO
    let mode: RunMode
    let parser: ShellParser
    /// Reads a secret (`key set`): without echo on a terminal, else one line of stdin;
    /// `nil` when there is none.
    let readSecret: @Sendable (String) -> String?
    /// Asks a question on the terminal (a served tool's consent); `nil` outside the REPL.
    let readAnswer: (@Sendable (String) -> String?)?

    /// Creates a runtime; without `externalPlugins`, one searching this process's environment.
    init(
        registry: PluginRegistry, session: ShellSession, io: ShellIO, mode: RunMode,
        readSecret: @escaping @Sendable (String) -> String? = ShellRuntime.readLineFromStandardInput,
        readAnswer: (@Sendable (String) -> String?)? = nil,
        externalPlugins: ExternalPluginHost? = nil, mcpServers: MCPServerRegistry? = nil
    ) {
        self.registry = registry
        self.externalPlugins =
            externalPlugins ?? ExternalPluginHost(builtInNames: registry.commandNames, stderr: io.stderr)
        self.mcpServers =
            mcpServers
            ?? MCPServerRegistry(environment: ProcessInfo.processInfo.environment, stderr: io.stderr)
        self.session = session
        self.io = io
        self.mode = mode
        self.readSecret = readSecret
        self.readAnswer = readAnswer
        parser = ShellParser(grammar: registry.grammar, parseJSON: ShellParser.strictJSON)
    }

    /// The runtime is its own plugin host and tool server (external plugins, MCP servers).
    func service<Service>(_ type: Service.Type) -> Service? { self as? Service }

    /// One line of standard input, without its line end; `nil` at end of input.
    static let readLineFromStandardInput: @Sendable (String) -> String? = { _ in
        Swift.readLine(strippingNewline: true).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    }

    /// Runs every command of `source` in order.
    /// - Parameters:
    ///   - directory: the folder `source` and relative paths resolve against.
    ///   - depth: the `source` nesting level.
    ///   - recorded: whether succeeded commands are kept for `save` (top-level input only).
    func run(_ source: ShellSource, directory: String, depth: Int = 0, recorded: Bool = true) async -> Flow {
        await run(
            CommandCursor(parser.parse(source)), sourceName: source.name, directory: directory, depth: depth,
            recorded: recorded)
    }

    /// Runs the commands `cursor` gives, in order, each as soon as it is given (a script read
    /// from a pipe as it arrives, ``StandardInputScript``).
    /// - Parameter sourceName: the name of their source, for error locations.
    func run(
        _ cursor: CommandCursor, sourceName: String, directory: String, depth: Int = 0, recorded: Bool = true
    ) async -> Flow {
        await ShellRuntime.$currentCursor.withValue(cursor) {
            while let command = cursor.next() {
                if Task.isCancelled { return .stop(ShellExitStatus.interrupted) }
                let flow = await run(
                    command, sourceName: sourceName, directory: directory, depth: depth, recorded: recorded)
                if flow != .next { return flow }
            }
            return .next
        }
    }

    /// Whether the commands running come from `sophonrc` (or a file it sources): their errors
    /// always carry their location, never mark the run failed nor stop it under `--bail`, and
    /// `exit`/`quit` are refused (docs/files.md, "sophonrc").
    @TaskLocal static var inStartupFile = false

    /// Runs `sophonrc`: its errors print with their location but change neither the exit
    /// status nor the `expect` tally.
    func runStartupFile(_ source: ShellSource, directory: String) async -> Flow {
        let before = session.withState { ($0.passed, $0.failed, $0.anyCommandFailed) }
        let flow = await ShellRuntime.$inStartupFile.withValue(true) {
            await run(source, directory: directory, recorded: false)
        }
        session.withState { state in
            (state.passed, state.failed, state.anyCommandFailed) = before
        }
        if case .stop(let status) = flow, status == ShellExitStatus.interrupted { return flow }
        return .next
    }

    /// The commands of the source being run, for `key set` reading its next line when the
    /// script itself comes from stdin.
    @TaskLocal static var currentCursor: CommandCursor?

    /// `key set` in a script read from stdin: the script's next line is the key (it is taken
    /// out of the script, never run or echoed).
    static let readNextScriptLine: @Sendable (String) -> String? = { _ in
        currentCursor?.next()?.text
    }

    /// Runs one parsed command and reports its outcome.
    func run(
        _ command: ParsedCommand, sourceName: String, directory: String, depth: Int, recorded: Bool
    ) async -> Flow {
        let settings = session.settings
        var format = settings.output
        if settings.echo, format != .json { io.printLine("sophon> " + ResultPrinter.shown(command.text)) }
        let location = mode == .interactive && !ShellRuntime.inStartupFile ? nil : sourceName
        let parsed: ShellCommand
        switch command.result {
        case .failure(let error):
            report(
                CommandFailure(kind: .parseError, message: error.message), text: command.text,
                rendered: error.rendered(withLocation: location != nil), format: format)
            return failed()
        case .success(let value):
            parsed = value
        }
        let context = CommandContext(runtime: self, directory: directory, depth: depth)
        var argument: String?
        do {
            let expands = registry.command(named: parsed.name ?? "")?.expandsArguments ?? true
            let request = try expand(parsed, text: command.text, arguments: expands)
            argument = request.rawArgument
            if ShellRuntime.inStartupFile, ["exit", "quit"].contains(request.name) {
                throw CommandFailure(
                    kind: .usage,
                    message: "'\(request.name)' is not allowed in sophonrc (it would end every run)")
            }
            let result = try await execute(request, context: context, format: &format)
            if recorded, !["save", "key"].contains(request.name) {
                session.withState { $0.succeededCommands.append(command.text) }
            }
            return show(result, for: command.text, format: format)
        } catch let failure as CommandFailure {
            // An error inside the raw argument points at it, as a parse error does.
            let pointed = failure.pointed(
                in: argument, origin: parsed.rawArgumentOrigin, commandLine: command.line)
            report(
                failure, text: command.text,
                rendered: pointed?.rendered(withLocation: location != nil)
                    ?? ShellDiagnostic.rendered(failure.message, sourceName: location, line: command.line),
                format: format)
        } catch is CancellationError {
            // In the REPL, below the `^C` the terminal echoed (InterruptSignal).
            let newLine = mode == .interactive && InterruptSignal.leftAnEchoedControlCharacter ? "\n" : ""
            report(
                CommandFailure(kind: .interrupted, message: ShellMessages.interrupted), text: command.text,
                rendered: newLine
                    + ShellDiagnostic.rendered(
                        ShellMessages.interrupted, sourceName: location, line: command.line),
                format: format)
        } catch {
            let failure =
                (error as? CommandFailureConvertible)?.commandFailure
                ?? CommandFailure(kind: .internalError, message: "\(error)")
            report(
                failure, text: command.text,
                rendered: ShellDiagnostic.rendered(failure.message, sourceName: location, line: command.line),
                format: format)
        }
        return failed()
    }

    /// Runs a request built outside the parser (one-command mode); returns whether it succeeded
    /// and how the run should end.
    func runOneCommand(_ request: CommandRequest) async -> Flow {
        let context = CommandContext(runtime: self, directory: ".", depth: 0)
        var format = session.settings.output
        do {
            let result = try await execute(request, context: context, format: &format)
            return show(result, for: request.source, format: format)
        } catch let failure as CommandFailure {
            // An error inside a one-line raw argument: the argument, with a caret under it.
            let origin = request.rawArgument.flatMap { argument in
                argument.contains("\n")
                    ? nil
                    : ArgumentOrigin(sourceName: "", line: 1, column: 1, lines: [argument], isBlock: false)
            }
            let pointed = failure.pointed(in: request.rawArgument, origin: origin, commandLine: 1)
            report(
                failure, text: request.source,
                rendered: pointed?.rendered(withLocation: false) ?? "error: \(failure.message)",
                format: format)
            if let status = failure.exitStatus {
                _ = failed()
                return .stop(status)
            }
        } catch {
            let failure =
                (error as? CommandFailureConvertible)?.commandFailure
                ?? CommandFailure(kind: .internalError, message: "\(error)")
            report(failure, text: request.source, rendered: "error: \(failure.message)", format: format)
        }
        return failed()
    }

    /// The exit status of the run so far, after printing the closing tally when expectations
    /// were evaluated (`N passed, N failed`, or `{"summary": ...}` with `--json`).
    func finish(exitStatus requested: Int32? = nil) -> Int32 {
        let state = session.withState { $0 }
        if state.passed + state.failed > 0 {
            ResultPrinter(io: io, format: state.settings.output).printTally(
                passed: state.passed, failed: state.failed)
        }
        if let requested { return requested }
        return state.anyCommandFailed ? ShellExitStatus.failure : ShellExitStatus.success
    }

    // MARK: - Steps

    /// The request for `command`: its name and its words expanded.
    private func expand(_ command: ShellCommand, text: String, arguments expandArguments: Bool) throws
        -> CommandRequest
    {
        guard let first = command.words.first else {
            throw CommandFailure(kind: .parseError, message: "empty command")
        }
        let expander = ShellExpander(lookup: session.variable, textLookup: session.variableKeptAsText)
        do throws(ShellExpansionError) {
            let name: String
            if let literal = command.name { name = literal } else { name = try expander.text(of: first) }
            var arguments: [String] = []
            if command.assignment == nil, expandArguments {
                for word in command.arguments { arguments.append(try expander.text(of: word)) }
            }
            var raw: String?
            if let word = command.rawArgument { raw = try expander.text(of: word) }
            return CommandRequest(
                name: name, arguments: arguments, rawArgument: raw, parsed: command, source: text)
        } catch {
            throw CommandFailure(kind: error.kind, message: error.message)
        }
    }

    /// Runs `request`. A command that takes `--json` among its own words
    /// (``PluginCommand/takesJSONFlag``: `prompt --json FILE`) runs without that word as the whole
    /// run does under `--json`: `format` becomes `.json` and the session's output is JSON while it
    /// runs (so nothing streams), then as it was. `--json` given twice is a usage error
    /// (``OptionError/repeated(_:)``), as any flag given twice.
    private func execute(_ request: CommandRequest, context: CommandContext, format: inout OutputFormat)
        async throws -> CommandResult
    {
        let command = try await resolveCommand(named: request.name)
        try checkSubcommand(request, of: command, context: context)
        guard command.takesJSONFlag, let flag = request.arguments.firstIndex(of: "--json") else {
            return try await withInterruptLine(request, format: format) {
                try await run(command, request, context: context)
            }
        }
        var request = request
        request.arguments.remove(at: flag)
        format = .json
        if request.arguments.contains(CommandOption.json.name) {
            throw OptionError.repeated(CommandOption.json.name).failure(command: request.name)
        }
        let previous = session.withState { state in
            defer { state.settings.output = .json }
            return state.settings.output
        }
        defer { session.withState { $0.settings.output = previous } }
        return try await withInterruptLine(request, format: format, runFormat: previous) {
            try await run(command, request, context: context)
        }
    }

    /// The failures that read the same whatever command met them: no key, a key the server
    /// refused, an interruption.
    private static let unprefixed: Set<ShellErrorKind> = [.missingAPIKey, .invalidAPIKey, .interrupted]

    /// Runs `command`: a failure of a built-in command's subcommand names both, by the one
    /// rule of a command's error prefix (``CommandFailure/prefixed(_:unless:_:)``): `cache show:
    /// no cache named 'nope'`. The subcommand is the first word that is not an option, as
    /// ``checkSubcommand(_:of:context:)`` reads it. External plugins' commands say their own.
    private func run(_ command: PluginCommand, _ request: CommandRequest, context: CommandContext)
        async throws -> CommandResult
    {
        guard registry.command(named: command.name) != nil,
            let word = request.arguments.first(where: { !$0.hasPrefix("-") }),
            CommandOutline.subcommands(command.name, usage: command.usage).contains(word)
        else { return try await command.run(request, context) }
        do {
            return try await command.run(request, context)
        } catch {
            guard
                let failure = error as? CommandFailure
                    ?? (error as? CommandFailureConvertible)?.commandFailure,
                !Self.unprefixed.contains(failure.kind)
            else { throw error }
            return try CommandFailure.prefixed("\(command.name) \(word)") { throw failure }
        }
    }

    /// Runs `body` (a command) with, outside the REPL, what a Ctrl-C that ends the process
    /// prints first armed (``InterruptSignal/setExitLine(_:)``): under `--json` the command's
    /// `interrupted` object, so that every command still prints its one JSON object; then the
    /// closing tally when expectations were evaluated, as every run that evaluated one ends
    /// with it. The lines are disarmed before the command's own result is printed.
    private func withInterruptLine<R>(
        _ request: CommandRequest, format: OutputFormat, runFormat: OutputFormat? = nil,
        _ body: () async throws -> R
    ) async rethrows -> R {
        guard mode != .interactive else { return try await body() }
        var lines = ""
        if format == .json {
            let interrupted = CommandFailure(kind: .interrupted, message: ShellMessages.interrupted)
            lines += ResultPrinter.jsonLine(interrupted, for: request.source) + "\n"
        }
        let (passed, failed) = session.withState { ($0.passed, $0.failed) }
        if passed + failed > 0 {
            // The run's format, not a `COMMAND --json` of this one command.
            let tallyFormat = runFormat ?? session.withState { $0.settings.output }
            lines += ResultPrinter.tallyLine(passed: passed, failed: failed, format: tallyFormat) + "\n"
        }
        guard !lines.isEmpty else { return try await body() }
        InterruptSignal.setExitLine(lines)
        defer { InterruptSignal.setExitLine(nil) }
        return try await body()
    }

    /// A first word near, but not one of, the command's subcommands (`cache crate`, `cache
    /// LIST`: near in any case): its usage error with "did you mean", before the command runs (``CommandOutline/strictSubcommands(_:usage:)``).
    private func checkSubcommand(
        _ request: CommandRequest, of command: PluginCommand, context: CommandContext
    )
        throws
    {
        guard command.argumentStyle == .words,
            let word = request.arguments.first(where: { !$0.hasPrefix("-") })
        else { return }
        let subcommands = CommandOutline.strictSubcommands(command.name, usage: command.usage)
        // Subcommands are matched exactly (`cache LIST` is not `cache list`), but suggested
        // whatever the case typed: `LIST` is nearest to `list`.
        guard !subcommands.isEmpty, !subcommands.contains(word),
            let close = Suggestions.closest(to: word.lowercased(), in: subcommands).first
        else { return }
        throw context.usageFailure(command.name, hint: "did you mean '\(close)'?")
    }

    /// Prints `result` in the current output format and stores a value as `$last`.
    private func show(_ result: CommandResult, for text: String, format: OutputFormat) -> Flow {
        switch result {
        case .reply(let reply): session.withState { $0.last = reply.value }
        case .value(let value): session.withState { $0.last = value }
        case .lazyValue(let value): session.withState { $0.lastStorage = value }
        case .none, .text, .report, .exit: break
        }
        ResultPrinter(io: io, format: format).print(result, for: text)
        if case .exit(let status) = result { return .stop(status) }
        return .next
    }

    /// Prints a failure: the JSON object with `--json`, and the rendered message on stderr.
    private func report(_ failure: CommandFailure, text: String, rendered: String, format: OutputFormat) {
        ResultPrinter(io: io, format: format).print(failure, for: text, rendered: rendered)
    }

    /// Marks the run failed (outside the REPL) and stops it under `bail`.
    private func failed() -> Flow {
        guard mode != .interactive, !ShellRuntime.inStartupFile else { return .next }
        let bail = session.withState { state in
            state.anyCommandFailed = true
            return state.settings.bail
        }
        return bail ? .stop(ShellExitStatus.failure) : .next
    }
}

extension ShellExpansionError {
    /// lowerCamelCase kind for `--json` error objects.
    var kind: ShellErrorKind {
        switch self {
        case .undefinedVariable: .undefinedVariable
        case .noField, .indexOutOfRange, .wrongType: .missingPath
        }
    }
}

/// Exit statuses of `sophon` (docs/commands.md).
enum ShellExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let interrupted: Int32 = 130
}
