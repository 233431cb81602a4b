import Foundation
import SophonCore
import SophonGemini

/// `tool`, `tools` and `tool-reply` (docs/commands.md, "Tools").
enum ToolCommands {
    /// `tool NAME SPEC ["DESCRIPTION"]`, `tool @FILE`, `tool show NAME`, `tool clear [NAME]`.
    /// `tool show` shows a declared function, else a plugin's or MCP server's tool (starting
    /// them, as ``ServedTools/startServers(context:services:)`` does), as it is sent.
    /// - Parameter services: the Gemini services (a replay shows the tape's declarations).
    static func tool(_ request: CommandRequest, context: CommandContext, services: GeminiServices?)
        async throws -> CommandResult
    {
        var words = request.arguments[...]
        if let first = words.first, first == request.name { words.removeFirst() }
        if let raw = request.rawArgument {
            guard let name = words.first, words.count == 1 else {
                // `tool NAME` alone: a function without arguments.
                guard words.isEmpty else { throw context.usageFailure("tool") }
                // `tool g`, or `tool 9bad {...}` (the first piece is the name meant; say why it fails).
                let name = String(raw.prefix { !$0.isWhitespace })
                return try declare(name, rest: String(raw.dropFirst(name.count)), context)
            }
            return try declare(name, rest: raw, context)
        }
        let list = Array(words)
        if list.count == 2, list[0] == "show" {
            // A report, as `schema show` is: `--json` prints the declaration as an object.
            if let declaration = find(list[1], context: context) {
                return .report(declaration.jsonValue.prettyText, data: declaration.jsonValue)
            }
            await ServedTools.startServers(context: context, services: services)
            let served = servedDeclarations(context: context, services: services)
            guard let declaration = served.first(where: { $0.name == list[1] }) else {
                throw unknown(list[1], command: "tool show", context, served: served.map(\.name))
            }
            return .report(declaration.jsonValue.prettyText, data: declaration.jsonValue)
        }
        if list == ["clear"] {
            context.session.withToolState { $0.declarations = [] }
            return .none
        }
        if list.count == 2, list[0] == "clear" {
            let name = list[1]
            guard find(name, context: context) != nil else {
                throw unknown(name, command: "tool clear", context)
            }
            context.session.withToolState { $0.declarations.removeAll { $0.name == name } }
            return .none
        }
        if list.count == 1, let path = try ExtractCommand.filePath(list[0], command: "tool", context: context)
        {
            return declare(try ToolDeclarationSource.declarations(path: path, context: context), context)
        }
        if let name = list.first, !subcommands.contains(name), !name.hasPrefix("@") {
            return try declare(name, rest: list.dropFirst().joined(separator: " "), context)
        }
        throw context.usageFailure("tool")
    }

    /// The words that make `tool` a subcommand rather than a declaration.
    static let subcommands = ["show", "clear"]

    /// `tool NAME SPEC`: declares function `name`. A name near a subcommand followed by what
    /// that subcommand takes (`tool shw x`, `tool clar`) is still a valid declaration (a
    /// function may be called `shop` or `clean`), so it is declared, and a note on stderr names
    /// the subcommand and how to take the declaration back.
    private static func declare(_ name: String, rest: String, _ context: CommandContext) throws
        -> CommandResult
    {
        let result = declare(
            [try ToolDeclarationSource.declaration(name: name, rest: rest, context: context)], context)
        let operand = rest.trimmingCharacters(in: .whitespaces)
        // `show NAME`, `clear [NAME]`: only a rest that fits the subcommand makes it the likely one.
        let fitting = subcommands.filter { subcommand in
            operand.isEmpty ? subcommand == "clear" : RawArgumentSpec.isName(operand)
        }
        if let close = Suggestions.closest(to: name.lowercased(), in: fitting).first {
            let meant = (["tool", close] + (operand.isEmpty ? [] : [operand])).joined(separator: " ")
            context.io.printError(
                ShellMessages.note(
                    "tool: declared a function named '\(name)' (did you mean '\(meant)'?); "
                        + "'tool clear \(name)' removes it"))
        }
        return result
    }

    private static func declare(_ declarations: [FunctionDeclaration], _ context: CommandContext)
        -> CommandResult
    {
        context.session.withToolState { state in
            for declaration in declarations {
                if let index = state.declarations.firstIndex(where: { $0.name == declaration.name }) {
                    state.declarations[index] = declaration
                } else {
                    state.declarations.append(declaration)
                }
            }
        }
        return .none
    }

    private static func find(_ name: String, context: CommandContext) -> FunctionDeclaration? {
        context.session.withToolState { $0.declarations.first { $0.name == name } }
    }

    /// The declarations of the plugins' and MCP servers' tools, as a tool exchange sends them
    /// (in a replay, those the tape declared), each name once.
    private static func servedDeclarations(context: CommandContext, services: GeminiServices?)
        -> [FunctionDeclaration]
    {
        var declarations = ServedTools(context: context, services: services).declarations
        for tool in MCPServedTools.offered(context: context, services: services)
        where !declarations.contains(where: { $0.name == tool.declaration.name }) {
            declarations.append(tool.declaration)
        }
        return declarations
    }

    private static func unknown(
        _ name: String, command: String, _ context: CommandContext, served: [String] = []
    ) -> CommandFailure {
        let names = context.session.withToolState { $0.declarations.map(\.name) }
        var known = names.isEmpty ? "none is declared" : "declared: " + names.joined(separator: ", ")
        if !served.isEmpty { known += "; served: " + served.joined(separator: ", ") }
        return CommandFailure(kind: .unknownTool, message: "\(command): no tool named '\(name)' (\(known))")
    }

    /// `tools`: every declared function, plugin tool, MCP tool and built-in tool, and who serves
    /// it; MCP tools as ``MCPServedTools`` finds them (`services` tell whether the run replays).
    static func tools(context: CommandContext, services: GeminiServices? = nil) -> CommandResult {
        let (declarations, builtins) = context.session.withToolState { ($0.declarations, $0.builtins) }
        var rows: [(String, String, String, String)] = declarations.map {
            ($0.name, "function", "nobody (tool-reply)", $0.description ?? "")
        }
        let declaredNames = Set(declarations.map(\.name))
        for (plugin, tool) in context.runtime.pluginTools() where !declaredNames.contains(tool.name) {
            rows.append((tool.name, "function", "plugin \(plugin)", tool.description))
        }
        var listed = declaredNames.union(rows.map(\.0))
        for tool in MCPServedTools.offered(context: context, services: services)
        where !listed.contains(tool.declaration.name) {
            listed.insert(tool.declaration.name)
            rows.append(
                (tool.declaration.name, "function", "mcp \(tool.server)", tool.declaration.description ?? ""))
        }
        let builtinLabels = ["code": "code execution", "search": "Google Search", "url": "URL context"]
        for name in ToolSessionState.builtinNames where builtins.contains(name) {
            rows.append((name, "built-in", "Google", builtinLabels[name] ?? name))
        }
        let data = JSONValue.object([
            JSONMember(
                "tools",
                .array(
                    rows.map { row in
                        .object([
                            JSONMember("name", .string(row.0)), JSONMember("kind", .string(row.1)),
                            JSONMember("servedBy", .string(row.2)), JSONMember("description", .string(row.3)),
                        ])
                    }))
        ])
        guard !rows.isEmpty else {
            return .report("(no tools; declare one with 'tool NAME SPEC')", data: data)
        }
        let width = rows.map(\.0.count).max() ?? 0
        return .report(
            rows.map { row in
                let padded = row.0.padding(toLength: width, withPad: " ", startingAt: 0)
                let line = "\(padded)  \(row.1)  \(row.2)"
                return row.3.isEmpty ? line : "\(line)  \(row.3)"
            }.joined(separator: "\n"), data: data)
    }

    /// `tool-reply [NAME] JSON`: answers the earliest unanswered pending call of NAME (the only
    /// pending call without NAME); a non-object value is sent as `{"result": VALUE}`. When every
    /// pending call has its answer, they go to the model and its reply is the result.
    static func reply(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        var words = request.arguments[...]
        if let first = words.first, first == request.name { words.removeFirst() }
        guard let raw = request.rawArgument, !raw.isEmpty, words.count <= 1 else {
            throw context.usageFailure("tool-reply")
        }
        guard let pending = context.session.withToolState({ $0.pending }) else {
            throw CommandFailure(
                kind: .noToolCallsPending, message: "tool-reply: no function calls are pending")
        }
        let unanswered = pending.calls.indices.filter { pending.responses[$0] == nil }
        let lone = raw.trimmingCharacters(in: .whitespaces)
        if words.isEmpty, pending.unansweredNames.contains(lone), (try? JSONValue(parsing: lone)) == nil {
            // `tool-reply get_weather`: the name of a pending call, without its answer.
            throw CommandFailure(
                kind: .usage,
                message: "tool-reply: the answer to '\(lone)' is missing: tool-reply \(lone) JSON")
        }
        let index: Int
        if let name = words.first {
            guard let found = unanswered.first(where: { pending.calls[$0].name == name }) else {
                throw CommandFailure(
                    kind: .unknownTool,
                    message:
                        "tool-reply: no pending call of '\(name)' (pending: \(pending.unansweredNames.joined(separator: ", ")))"
                )
            }
            index = found
        } else {
            guard unanswered.count == 1, let only = unanswered.first else {
                throw CommandFailure(
                    kind: .usage,
                    message:
                        "tool-reply: \(unanswered.count) calls are pending (\(pending.unansweredNames.joined(separator: ", "))); name the one to answer: tool-reply NAME JSON"
                )
            }
            index = only
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: raw)
        } catch  where request.parsed?.rawArgument?.isQuoted == true {
            // `tool-reply get_time "noon"`: typed as a JSON string, whose quotes the shell took.
            value = .string(raw)
        } catch {
            throw CommandFailure(
                kind: .parseError,
                message:
                    "tool-reply: the answer is not valid JSON (\(error.line):\(error.column): \(error.message))"
            )
        }
        let response: JSONValue
        if case .object = value {
            response = value
        } else {
            response = .object([JSONMember("result", value)])
        }
        var answered = pending
        answered.responses[index] = response
        guard answered.unansweredNames.isEmpty else {
            context.session.withToolState { $0.pending = answered }
            return .none
        }
        let responseTurn = Content(
            role: "user",
            parts: zip(answered.calls, answered.responses).map { call, response in
                Part(functionResponse: FunctionResponse(id: call.id, name: call.name, response: response))
            })
        context.session.withToolState { $0.pending = answered }
        do {
            let (reply, _) = try await ExchangeLog.recording(
                "tool-reply",
                options: .init(model: answered.model, prompt: ExchangeLog.text(of: responseTurn)),
                history: Array(answered.contents.prefix(answered.conversationCount)),
                inConversation: answered.isChat, context: context
            ) {
                if let conversation = answered.interactions {
                    let reply = try await InteractionTurn.answer(
                        answered, conversation: conversation, context: context, services: services)
                    return (reply, [])
                }
                let reply = try await ToolExchange.send(
                    contents: answered.contents + [responseTurn], isChat: answered.isChat,
                    conversationCount: answered.conversationCount, model: answered.model, context: context,
                    services: services, schema: answered.schema)
                return (reply, [])
            }
            return .reply(reply)
        } catch {
            // Nothing was answered: the last reply may be given again.
            context.session.withToolState { $0.pending = pending }
            throw error
        }
    }
}
