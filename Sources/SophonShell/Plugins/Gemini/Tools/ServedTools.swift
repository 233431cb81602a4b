import Foundation
import SophonCore
import SophonGemini

/// The functions a handler serves in this command (docs/commands.md, "Tools"): the tools of the
/// external plugins started so far, then those of the MCP servers (docs/mcp.md), unless the
/// session declared a function of the same name (then `tool-reply` answers it). Runs their calls
/// with consent (``ToolConsent``), argument checks and the session's `tool-timeout`.
/// ``startServers(context:services:)`` starts what serves them, when they are first needed.
struct ServedTools: Sendable {
    /// One served function.
    struct Entry: Sendable {
        /// The plugin's name, or the MCP server's.
        var plugin: String
        var declaration: FunctionDeclaration
        /// Whether an MCP server serves it.
        var mcp = false
        /// Whether it runs without consent (`mcp add --trust`, `"trust": true`).
        var trusted = false
    }

    private let entries: [String: Entry]
    /// The declarations to send, in plugin order.
    let declarations: [FunctionDeclaration]
    /// The MCP servers restarted in this command (once each).
    private let restarts = MCPRestartBudget()

    /// Starts the discovered plugins and the MCP servers not disabled that have not started
    /// yet (``ToolServers/startToolServers(timeout:check:)``), so their tools are offered: the
    /// one place where tools are first needed (a turn that offers functions, `tools`,
    /// `tool show`). A replay starts nothing: the tape answers the calls (docs/tapes.md).
    /// - Parameter services: the Gemini services, whose transcript tells a replay; `nil`: live.
    static func startServers(context: CommandContext, services: GeminiServices?) async {
        guard services?.transcript.runsLive != false else { return }
        await context.runtime.startToolServers(
            timeout: context.session.withToolState { $0.timeout }, check: MCPServedTools.check)
    }

    /// The served functions of `context`'s session, plugins and MCP servers, or, when the
    /// transcript's record offers them (a replay), those the recorded request declared beyond
    /// the session's own: the tape's `tool` lines answer their calls, so the plugins need not be
    /// there (docs/tapes.md).
    init(context: CommandContext, services: GeminiServices? = nil) {
        let declared = Set(context.session.withToolState { $0.declarations.map(\.name) })
        var entries: [String: Entry] = [:]
        var declarations: [FunctionDeclaration] = []
        if let recorded = services?.transcript.recordedFunctions(orLast: false) {
            let mcpNames = Set(context.runtime.mcpServers?.names ?? [])
            for function in recorded {
                guard let declaration = Self.recordedDeclaration(function.declaration),
                    !declared.contains(declaration.name), entries[declaration.name] == nil
                else { continue }
                let server = function.server ?? "tape"
                entries[declaration.name] = Entry(
                    plugin: server, declaration: declaration, mcp: mcpNames.contains(server))
                declarations.append(declaration)
            }
            self.entries = entries
            self.declarations = declarations
            return
        }
        for (plugin, tool) in context.runtime.pluginTools() where !declared.contains(tool.name) {
            guard entries[tool.name] == nil else { continue }
            let declaration: FunctionDeclaration
            do {
                declaration = try FunctionDeclaration.converting(
                    name: tool.name, description: tool.description, inputSchema: tool.parameters,
                    sendUnconvertible: true
                ).declaration
            } catch {
                // The one rule for what the conversion cannot take: not offered, said once.
                let key = plugin + "/" + tool.name
                if context.session.withToolState({ $0.reportedUnoffered.insert(key).inserted }) {
                    context.io.printError(
                        ShellMessages.warning(
                            "plugin '\(plugin)': tool '\(tool.name)' is not offered: \(error.description)"))
                }
                continue
            }
            entries[tool.name] = Entry(plugin: plugin, declaration: declaration)
            declarations.append(declaration)
        }
        for tool in MCPServedTools.offered(context: context, services: services)
        where !declared.contains(tool.declaration.name) {
            guard entries[tool.declaration.name] == nil else { continue }
            entries[tool.declaration.name] = Entry(
                plugin: tool.server, declaration: tool.declaration, mcp: true, trusted: tool.trusted)
            declarations.append(tool.declaration)
        }
        self.entries = entries
        self.declarations = declarations
    }

    /// A recorded function declaration; `nil` when it does not decode.
    private static func recordedDeclaration(_ item: JSONValue) -> FunctionDeclaration? {
        guard let name = item["name"]?.stringValue else { return nil }
        var declaration = FunctionDeclaration(
            name: name, description: item["description"]?.stringValue,
            parametersJsonSchema: item["parametersJsonSchema"])
        if let parameters = item["parameters"] {
            guard let schema = try? GeminiSchema(jsonValue: parameters, strict: false) else { return nil }
            declaration.parameters = schema
        }
        return declaration
    }

    /// The plugin serving `name`, if any.
    func plugin(for name: String) -> String? { entries[name]?.plugin }

    /// The library loop's server of these functions: one call at a time (a call may ask for
    /// consent), only the functions served here (the session's own wait for `tool-reply`).
    func server(context: CommandContext, services: GeminiServices) -> GeminiToolServer {
        GeminiToolServer(
            declarations: declarations, oneAtATime: true, serves: { plugin(for: $0) != nil },
            answer: { await serve($0, context: context, services: services) })
    }

    /// `plugin NAME` or `mcp NAME`: who serves `name`, as `tools` lists it.
    func server(for name: String) -> String? {
        entries[name].map { ($0.mcp ? "mcp " : "plugin ") + $0.plugin }
    }

    /// Runs one call and returns the function response: the tool's result (an object as is,
    /// anything else as `{"result": VALUE}`) or `{"error": MESSAGE}` for a declined call,
    /// arguments that break the declaration (the tool is not run), or a failed call. Prints
    /// `tool NAME ARGS -> RESULT` (abridged) on stderr.
    func serve(_ call: FunctionCall, context: CommandContext, services: GeminiServices) async -> JSONValue {
        guard let entry = entries[call.name] else { return Self.error("no tool named '\(call.name)'") }
        let arguments = call.args ?? .object([])
        // Live, recorded (every call, declined and refused ones too, so a replay answers the
        // calls in the same order), or answered from the tape's `tool` lines without asking
        // (docs/tapes.md): the transcript decides.
        let outcome = await services.transcript.serve(call, server: entry.plugin) {
            await runLive(entry, call, arguments: arguments, context: context)
        }
        let response: JSONValue
        // One line per call (docs/mcp.md): a failed call's line is its `{"error"}` response, said
        // whole (why it failed: the tool's text, or the fault naming the server).
        let failed: Bool
        switch outcome {
        case .result(let value):
            (response, failed) = (Self.wrapped(value), false)
        case .error(let message):
            (response, failed) = (Self.error(message), true)
        case .unrecorded(let unrecorded, let missing):
            guard missing else { return unrecorded }  // Cancelled: nothing more is said.
            (response, failed) = (unrecorded, true)
        }
        let shown = failed ? response.compactText : Self.abridged(response.compactText)
        context.io.printError("tool \(call.name) \(Self.abridged(arguments.compactText)) -> \(shown)")
        return response
    }

    /// Serves a call live: consent (``ToolConsent``), the argument check, then the plugin or
    /// MCP server under `tool-timeout`.
    private func runLive(
        _ entry: Entry, _ call: FunctionCall, arguments: JSONValue, context: CommandContext
    ) async -> GeminiToolOutcome {
        let timeout = context.session.withToolState { $0.timeout }
        let trusted = entry.mcp ? entry.trusted : context.runtime.isPluginTrusted(entry.plugin)
        let decision: ToolConsent.Decision
        do {
            decision = try ToolConsent.decide(
                name: call.name, arguments: arguments, trusted: trusted, context: context)
        } catch {
            // Ctrl-C at the question: the command's task is cancelled and the loop stops before
            // sending anything.
            return .unrecorded(response: ToolConsent.declinedResponse, missing: false)
        }
        if decision == .declined { return .error(ToolConsent.declinedResponse["error"]?.stringValue ?? "") }
        if let problem = entry.declaration.argumentError(arguments) { return .error(problem) }
        switch await run(entry, call.name, arguments: arguments, timeout: timeout, context: context) {
        case .success(let value):
            return .result(value)
        case .failure where Task.isCancelled:
            // Ctrl-C while the tool ran: the command is cancelled; nothing to report.
            return .unrecorded(response: Self.error("cancelled"), missing: false)
        case .failure(let failure):
            return .error(failure.message)
        }
    }

    /// Runs the call on the plugin or MCP server serving `entry`.
    private func run(
        _ entry: Entry, _ name: String, arguments: JSONValue, timeout: Duration, context: CommandContext
    ) async -> Result<JSONValue, PluginToolError> {
        guard entry.mcp else {
            return await context.runtime.runPluginTool(
                plugin: entry.plugin, name: name, arguments: arguments, timeout: timeout)
        }
        guard let servers = context.runtime.mcpServers else {
            return .failure(PluginToolError(message: "no MCP server named '\(entry.plugin)'"))
        }
        return await servers.call(
            server: entry.plugin, tool: name, arguments: arguments, timeout: timeout, restarts: restarts,
            check: MCPServedTools.check
        ).mapError { PluginToolError(message: $0.message) }
    }

    /// An object as is; any other value as `{"result": VALUE}`.
    private static func wrapped(_ value: JSONValue) -> JSONValue {
        if case .object = value { return value }
        return .object([JSONMember("result", value)])
    }

    private static func error(_ message: String) -> JSONValue { GeminiToolServer.error(message) }

    /// At most 200 characters, with `…` when cut.
    static func abridged(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(199)) + "…"
    }
}

/// Whether a call of a tool served by an external plugin or an MCP server may run
/// (docs/commands.md, "Tools", consent): such a tool runs a model-chosen action with the
/// user's rights.
///
/// A call runs at once when its server is trusted (`plugin load --trust`, `mcp add --trust`,
/// `"trust": true` in `mcp.json`), when the run has `--allow-tools`, after
/// `set tool-confirm off`, or when the user answered `always` for that tool earlier in the
/// session. Otherwise, in the REPL, the user is asked on the terminal
/// `run NAME ARGS? [y]es / [n]o / [a]lways`; without a terminal (scripts, `-c`, pipes) the call
/// is declined with a notice on stderr.
enum ToolConsent {
    /// What the user (or the session's settings) decided for one call.
    enum Decision: Equatable {
        /// The call runs.
        case run
        /// The call does not run; the model gets ``ToolConsent/declinedResponse``.
        case declined
    }

    /// The function response of a declined call.
    static let declinedResponse = JSONValue.object([
        JSONMember("error", .string("the user declined this call"))
    ])

    /// Decides whether the call of `name` with `arguments` runs, asking on the terminal when
    /// the session has one and no setting decides.
    /// - Parameters:
    ///   - name: the function the model called.
    ///   - arguments: its arguments, shown (abridged to 200 characters) in the question.
    ///   - trusted: whether the serving plugin or MCP server is trusted.
    /// - Throws: `CancellationError` after Ctrl-C at the question (the command is cancelled).
    static func decide(name: String, arguments: JSONValue, trusted: Bool, context: CommandContext) throws
        -> Decision
    {
        let (confirm, allowedByRun, always) = context.session.withToolState {
            ($0.confirm, $0.allowedByRun, $0.alwaysAllowed.contains(name))
        }
        if trusted || !confirm || allowedByRun || always { return .run }
        guard context.mode == .interactive, let ask = context.runtime.readAnswer else {
            context.io.printError(
                "tool \(name): declined (no consent without a terminal: run with --allow-tools, or 'set tool-confirm off')"
            )
            return .declined
        }
        let question = "run \(name) \(ServedTools.abridged(arguments.compactText))? [y]es / [n]o / [a]lways "
        while true {
            guard let answer = ask(question) else {
                // Ctrl-C cancelled the command; end of input declines.
                try Task.checkCancellation()
                return .declined
            }
            switch answer.lowercased() {
            case "y", "yes": return .run
            case "n", "no": return .declined
            case "a", "always":
                context.session.withToolState { _ = $0.alwaysAllowed.insert(name) }
                return .run
            default: continue
            }
        }
    }
}

/// The MCP tools a command offers (docs/mcp.md, "Tools"): those of the running servers, or in a
/// replay, where no server starts, the functions the next recorded request declared beyond the
/// session's and the plugins' (docs/tapes.md), each served by the server the tape's `tool` lines
/// name for it (the first MCP server when none does).
enum MCPServedTools {
    /// An MCP tool offered to the model: its declaration and the server serving it.
    struct Offered {
        var server: String
        var trusted: Bool
        var declaration: FunctionDeclaration
    }

    /// What MCP hosting asks of each listed tool: the reason it cannot be offered, by the one
    /// conversion of a tool's JSON Schema (``FunctionDeclaration/converting(name:description:inputSchema:sendUnconvertible:)``).
    static let check: MCPServerRegistry.ToolCheck = { tool in
        do {
            _ = try declaration(tool)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The declaration of a listed tool.
    static func declaration(_ tool: MCPServerRegistry.Tool) throws(FunctionDeclarationError)
        -> FunctionDeclaration
    {
        try FunctionDeclaration.converting(
            name: tool.name, description: tool.description, inputSchema: tool.inputSchema
        ).declaration
    }

    /// The session's MCP tools: the running servers', or those the transcript's record offers.
    static func offered(context: CommandContext, services: GeminiServices?) -> [Offered] {
        guard let servers = context.runtime.mcpServers else { return [] }
        guard let recorded = services?.transcript.recordedFunctions(orLast: true) else {
            return servers.offeredTools().compactMap { offered in
                (try? declaration(offered.tool)).map {
                    Offered(server: offered.server, trusted: offered.trusted, declaration: $0)
                }
            }
        }
        let names = Set(servers.names)
        guard !names.isEmpty else { return [] }
        return recorded.compactMap { function in
            guard
                let server = function.server.flatMap({ names.contains($0) ? $0 : nil })
                    ?? servers.names.first,
                let declaration = try? JSONDecoder().decode(
                    FunctionDeclaration.self, from: Data(function.declaration.compactText.utf8))
            else { return nil }
            return Offered(
                server: server, trusted: servers.config(named: server)?.trust ?? false,
                declaration: declaration)
        }
    }
}
