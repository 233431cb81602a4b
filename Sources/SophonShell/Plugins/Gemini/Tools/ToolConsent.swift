import SophonCore

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
