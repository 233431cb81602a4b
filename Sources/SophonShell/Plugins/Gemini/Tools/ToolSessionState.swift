import SophonCore
import SophonGemini

/// The tools plugin's part of a session (docs/commands.md, "Tools"): the declared functions,
/// the built-in tools, the function-calling settings, the calls waiting for `tool-reply`, and
/// the sources of the last grounded answer.
struct ToolSessionState: PluginSessionState {
    /// Declared functions, in declaration order (a redeclared name keeps its place).
    var declarations: [FunctionDeclaration] = []
    /// Built-in tools switched on (`set tools`): a subset of ``ToolSessionState/builtinNames``.
    var builtins: [String] = []
    /// `set tool-mode`; `nil` (never set) sends no `toolConfig`.
    var mode: FunctionCallingConfig.Mode?
    /// `set tool-rounds N`: model requests per command (default 10).
    var rounds = 10
    /// `set tool-timeout`: how long one served call may take (default 60 s).
    var timeout: Duration = .seconds(60)
    /// `set tool-confirm`: `false` trusts every tool for the session.
    var confirm = true
    /// `--allow-tools`: served tools run without asking for this run.
    var allowedByRun = false
    /// The served tools the user answered `always` for at the consent question: they run
    /// without asking for the rest of the session.
    var alwaysAllowed: Set<String> = []
    /// The calls the last answer asked for and nobody has answered yet.
    var pending: PendingToolCalls?
    /// The sources of the last grounded answer (`show sources`).
    var sources: [GroundingSource] = []
    /// The plugin tools already reported as not offered (`plugin/tool`), so each warning
    /// comes once a run.
    var reportedUnoffered: Set<String> = []

    /// The built-in tool names of `set tools`, in the order they are sent.
    static let builtinNames = ["code", "search", "url"]

    /// Whether functions are offered at all: `set tool-mode none` offers none (no declaration,
    /// no `toolConfig` is sent, and no plugin or MCP server starts for them); the built-in
    /// tools of `set tools` are not functions and stay on.
    var offersFunctions: Bool { mode != FunctionCallingConfig.Mode.none }

    /// Whether the next request carries `tools`.
    var hasTools: Bool { (offersFunctions && !declarations.isEmpty) || !builtins.isEmpty }

    /// The `tools` array of a request: the function declarations (none under `tool-mode none`),
    /// then one entry per built-in tool (`codeExecution`, `googleSearch`, `urlContext`); `nil`
    /// when there are none.
    var toolsValue: JSONValue? {
        var tools: [JSONValue] = []
        if offersFunctions, !declarations.isEmpty {
            tools.append(Tool(functionDeclarations: declarations).jsonValue)
        }
        for name in Self.builtinNames where builtins.contains(name) {
            switch name {
            case "code": tools.append(Tool(codeExecution: .object([])).jsonValue)
            case "search": tools.append(Tool(googleSearch: .object([])).jsonValue)
            default: tools.append(Tool(urlContext: .object([])).jsonValue)
            }
        }
        return tools.isEmpty ? nil : .array(tools)
    }

    /// The `toolConfig` of a request: sent only when `tool-mode` was set and functions are
    /// sent (so never under `tool-mode none`, which sends no function).
    var toolConfigValue: JSONValue? {
        guard let mode, offersFunctions, !declarations.isEmpty else { return nil }
        return ToolConfig(functionCallingConfig: FunctionCallingConfig(mode: mode)).jsonValue
    }
}

/// Function calls the model asked for that wait for `tool-reply`.
struct PendingToolCalls: Sendable {
    /// The history to send with the answers: every content up to and including the model turn
    /// holding the calls.
    var contents: [Content]
    /// The calls, in the order the model gave them.
    var calls: [FunctionCall]
    /// The answer to each call (same index), `nil` until given.
    var responses: [JSONValue?]
    /// Whether the exchange belongs to the `chat` conversation (then it joins it at the end).
    var isChat: Bool
    /// How many contents of ``contents`` were already in the conversation before this turn.
    var conversationCount: Int
    /// The model the command asked for (`--model`), if any.
    var model: String?
    /// The answer schema the command asked with (`nil`: a text answer).
    var schema: GeminiSchema?
    /// The conversation over the Interactions API the calls belong to (`set api
    /// interactions`); `nil` for generateContent, whose history is ``contents``.
    var interactions: GeminiInteractionConversation? = nil

    /// The names of the calls still unanswered, in call order.
    var unansweredNames: [String] {
        zip(calls, responses).filter { $0.1 == nil }.map(\.0.name)
    }
}

/// One grounding source: `[N] TITLE URI`.
struct GroundingSource: Sendable, Equatable {
    var title: String
    var uri: String
}

extension ShellSession {
    /// Runs `body` with exclusive access to the tools plugin's state in this session.
    func withToolState<Result>(_ body: (inout ToolSessionState) throws -> Result) rethrows -> Result {
        try withPluginState(ToolSessionState.self, body)
    }
}

extension ToolSessionState {
    /// The failure of `chat` or `ask` while calls are pending, naming them (nothing is sent).
    func pendingFailure(command: String) -> CommandFailure? {
        guard let pending else { return nil }
        let names = pending.unansweredNames.joined(separator: ", ")
        return CommandFailure(
            kind: .toolCallsPending,
            message:
                "\(command): function calls are pending: \(names); answer them with 'tool-reply NAME JSON' or drop them with 'reset'"
        )
    }
}
