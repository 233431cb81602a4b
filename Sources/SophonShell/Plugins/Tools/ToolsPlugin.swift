import SophonCore
import SophonGemini
import Synchronization

/// The tool commands (docs/commands.md, "Tools"): declaring functions, answering the model's
/// calls, the built-in tools and the function-calling settings. The Gemini plugin sends what
/// this plugin's session state declares (``ToolSessionState``).
final class ToolsPlugin: ShellPlugin {
    let name = "tools"
    /// The Gemini plugin, whose services `tool-reply` sends with.
    private let gemini: GeminiPlugin

    init(gemini: GeminiPlugin) { self.gemini = gemini }

    /// `true` when the transcript answers every served call (a replay: docs/tapes.md).
    func answersCalls(ofMissingPlugin path: String) -> Bool {
        gemini.services?.transcript.runsLive == false
    }

    /// The settings this plugin owns, as `set` and `show` name them.
    static let settingNames = ["tools", "tool-mode", "tool-rounds", "tool-timeout", "tool-confirm"]

    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        guard Self.settingNames.contains(name) else { return nil }
        let value = words.joined(separator: " ")
        func invalid(_ expectation: String) -> CommandFailure {
            .invalidSetting(name, expected: expectation, got: value)
        }
        switch name {
        case "tools":
            let items = value.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            if items == ["none"] {
                context.session.withToolState { $0.builtins = [] }
                return CommandResult.none
            }
            guard !items.isEmpty, items.allSatisfy(ToolSessionState.builtinNames.contains) else {
                throw invalid("code, search, url (comma-separated) or none")
            }
            context.session.withToolState {
                $0.builtins = ToolSessionState.builtinNames.filter(items.contains)
            }
        case "tool-mode":
            guard let mode = FunctionCallingConfig.Mode(rawValue: value.uppercased()),
                value == value.lowercased()
            else {
                throw invalid("auto, any, none or validated")
            }
            context.session.withToolState { $0.mode = mode }
        case "tool-rounds":
            guard let rounds = Int(value), rounds >= 1, rounds <= 1000 else {
                throw invalid("an integer 1...1000")
            }
            context.session.withToolState { $0.rounds = rounds }
        case "tool-timeout":
            guard let duration = DurationParser.parse(value), duration > .zero else {
                throw invalid("a positive duration up to a year, such as 30s or 2m")
            }
            context.session.withToolState { $0.timeout = duration }
        default:
            guard let confirm = OnOff.parse(value) else { throw invalid("on or off") }
            context.session.withToolState { $0.confirm = confirm }
        }
        return CommandResult.none
    }

    /// `show sources` and the tool settings.
    func show(_ name: String, context: CommandContext) -> CommandResult? {
        let state = context.session.withToolState { $0 }
        switch name {
        case "sources":
            return .text(state.sources.isEmpty ? "(no sources)" : ToolExchange.sourcesText(state.sources))
        case "tools": return .text(state.builtins.isEmpty ? "none" : state.builtins.joined(separator: ","))
        case "tool-mode": return .text(state.mode?.rawValue.lowercased() ?? "auto")
        case "tool-rounds": return .text(String(state.rounds))
        case "tool-timeout": return .text(DurationParser.format(state.timeout))
        case "tool-confirm": return .text(OnOff.text(state.confirm))
        default: return nil
        }
    }

    var reportNames: [String] { ["sources"] }

    /// The tool settings and what Tab offers for them.
    var settings: [SettingDefinition] {
        let values = [
            "tools": ["code", "search", "url", "none"], "tool-mode": ["auto", "any", "none", "validated"],
            "tool-confirm": ["on", "off"],
        ]
        return Self.settingNames.map { SettingDefinition(name: $0, values: values[$0] ?? []) }
    }

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "tool", usage: "tool NAME SPEC [\"DESCRIPTION\"] | @FILE | show NAME | clear [NAME]",
                summary: "declare a function the model may call: tool get_weather { city: string }",
                argumentStyle: .raw(
                    RawArgumentSpec(wordKeywords: ["show", "clear"], wordPrefixes: ["@"], leadingName: true)),
                run: { [gemini] request, context in
                    try await ToolCommands.tool(request, context: context, services: gemini.services)
                }),
            PluginCommand(
                name: "tools", usage: "tools", summary: "list the declared functions and built-in tools",
                run: { [gemini] _, context in
                    await ServedTools.startServers(context: context, services: gemini.services)
                    return ToolCommands.tools(context: context, services: gemini.services)
                }),
            PluginCommand(
                name: "tool-reply", usage: "tool-reply [NAME] JSON",
                summary: "answer a pending function call; the model replies once all are answered",
                argumentStyle: .raw(RawArgumentSpec(leadingName: true)),
                run: { [gemini] request, context in
                    guard let services = gemini.services else {
                        throw CommandFailure(
                            kind: .internalError, message: "tool-reply: the Gemini services are not set up")
                    }
                    return try await ToolCommands.reply(request, context: context, services: services)
                }),
            PluginCommand(
                name: "mcp",
                usage:
                    "mcp add [--trust] NAME -- COMMAND [ARGS...] | mcp list | mcp remove NAME | mcp disable NAME | mcp enable NAME",
                summary: "connect an MCP server over stdio; the model may call its tools",
                options: MCPCommands.declared,
                completion: .custom { earlier, _ in
                    earlier.isEmpty ? .words(["add", "list", "remove", "disable", "enable"]) : .none
                },
                run: { [gemini] request, context in
                    try await MCPCommands.run(
                        request, context: context, live: gemini.services?.transcript.runsLive ?? true)
                }),
        ]
    }
}
