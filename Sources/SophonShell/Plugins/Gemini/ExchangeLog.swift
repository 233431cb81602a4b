import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// Writes one Gemini exchange of `ask` or `chat` to the log (docs/logs.md): the prompt, system
/// instruction, schema, model, settings, answer, usage, duration, error, conversation and time;
/// media by hash and size. Never the key (it is in a header, not in anything logged here).
/// A log that cannot be written is a warning; the command's result stands.
enum ExchangeLog {
    /// Runs `call` (one turn of `command`) and logs its outcome. A dry run is not logged.
    /// - Parameters:
    ///   - history: the conversation before the turn; empty starts a new conversation (chat).
    ///   - inConversation: the exchange belongs to the chat conversation (a `tool-reply` to a
    ///     `chat`'s calls): it keeps the conversation ID even when `history` is empty.
    ///   - sessionTurn: the exchange sends the session's system instruction, schema,
    ///     attachments and generation settings; `false` for a `research` job, which sends the
    ///     question alone: the entry then records none of them.
    static func recording(
        _ command: String, options: AskCommands.Options, history: [Content], inConversation: Bool = false,
        sessionTurn: Bool = true, context: CommandContext,
        _ call: () async throws -> (CallReply, [Content])
    ) async throws -> (CallReply, [Content]) {
        guard !options.dryRun, let plugin = logging(context) else { return try await call() }
        // What the turn sent: a prompt file's own system message, config and schema over the
        // session's.
        var settings = context.session.geminiSettings
        let generation = options.overrides.generation
        if let temperature = generation.temperature { settings.temperature = temperature }
        if let maxTokens = generation.maxOutputTokens { settings.maxTokens = maxTokens }
        if let system = options.overrides.system {
            settings.system = system.parts?.compactMap(\.text).joined(separator: "\n")
        }
        let (sessionSchema, attachments) =
            sessionTurn ? context.session.withGeminiState { ($0.schema, $0.attachments) } : (nil, [])
        let schema = sessionTurn ? options.schema ?? sessionSchema : nil
        let conversation: String? =
            command == "chat" || inConversation
            ? context.session.withLogState { state in
                if (history.isEmpty && !inConversation) || state.conversationID == nil {
                    state.conversationID = UUID().uuidString
                }
                return state.conversationID
            } : nil
        var entry = LogEntry(
            time: Date(), command: command, conversationID: conversation,
            model: options.model.map { GeminiModel(selection: $0).id } ?? settings.model,
            prompt: options.promptParts.compactMap(\.text).joined(separator: "\n"),
            systemInstruction: sessionTurn ? settings.system : nil,
            schema: options.noSchema ? nil : schema?.jsonValue.compactText,
            settings: sessionTurn ? settingsJSON(settings).compactText : nil,
            media: attachments.isEmpty ? nil : mediaJSON(attachments).compactText)
        let started = ContinuousClock.now
        // A tool exchange's rounds: a row each (ExchangeRounds).
        let rounds = ExchangeRounds()
        func finish() {
            entry.durationMilliseconds = (ContinuousClock.now - started).wholeMilliseconds
            for row in ExchangeRounds.entries(entry, rounds: rounds.recorded) {
                write(row, plugin: plugin, context: context)
            }
        }
        do {
            let (reply, turns) = try await ExchangeRounds.$current.withValue(rounds) { try await call() }
            let members = Dictionary(
                reply.envelope.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            // The model that answered, or the agent that ran a research job.
            if let model = (members["model"] ?? members["agent"])?.stringValue { entry.model = model }
            let usage = members["usage"]
            func count(_ name: String) -> Int { Int(usage?[name]?.doubleValue ?? 0) }
            entry.promptTokens = count("promptTokens")
            entry.outputTokens = count("outputTokens")
            entry.thoughtsTokens = count("thoughtsTokens")
            entry.totalTokens = count("totalTokens")
            entry.cost = members["cost"]?.doubleValue
            if let tier = members["serviceTier"],
                case .object(var settings)? = try? JSONValue(parsing: entry.settings ?? "{}")
            {
                settings.append(JSONMember("serviceTier", tier))
                entry.settings = JSONValue.object(settings).compactText
            }
            entry.answer = reply.value.stringValue ?? reply.value.compactText
            if let id = members["interaction"]?.stringValue {
                // Over the Interactions API: the interaction's id, which `--continue` continues.
                entry.settings = withInteraction(sessionTurn ? entry.settings : nil, id: id)
            }
            // With tools, the exchange updates the conversation itself: its new turns are logged.
            let added =
                conversation == nil
                ? turns : context.session.withGeminiState { Array($0.conversation.dropFirst(history.count)) }
            entry.turns = turnsJSON(turns.isEmpty ? added : turns)
            finish()
            return (reply, turns)
        } catch let failure as CommandFailure {
            entry.error = "\(failure.kind.rawValue): \(failure.message)"
            finish()
            throw failure
        }
    }

    /// Logs `entry` when the session logs (``logging(_:)``): an exchange written by its command
    /// itself (`embed`, `embed-multi`, `similar`, `expect ... similar|judge`).
    static func write(_ entry: LogEntry, context: CommandContext) {
        guard let plugin = logging(context) else { return }
        write(entry, plugin: plugin, context: context)
    }

    /// The log plugin when the session's Gemini exchanges are logged: logging is on
    /// (``LogPlugin/isEnabled(_:)``) and the transcript runs live. A replayed exchange is a
    /// tape's, not the user's: never logged, so never resumed.
    static func logging(_ context: CommandContext) -> LogPlugin? {
        let gemini = context.registry.plugins.lazy.compactMap { $0 as? GeminiPlugin }.first
        guard gemini?.services?.transcript.runsLive != false, let plugin = LogPlugin.of(context),
            plugin.isEnabled(context)
        else { return nil }
        return plugin
    }

    private static func write(_ entry: LogEntry, plugin: LogPlugin, context: CommandContext) {
        do {
            _ = try plugin.withStore(io: context.io) { try $0.append(entry) }
        } catch let failure as CommandFailure {
            context.io.printError(ShellMessages.warning("not logged: \(failure.message)"))
        } catch {
            context.io.printError(ShellMessages.warning("not logged: \(error)"))
        }
    }

    /// A turn's parts as logged prompt text: text parts as they are, others (function responses)
    /// as their compact JSON, members in wire order.
    static func text(of content: Content) -> String {
        (content.parts ?? []).map { part in
            if let text = part.text { return text }
            return (try? OrderedJSONEncoder().encode(part))?.compactText ?? ""
        }.joined(separator: "\n")
    }

    /// The generation settings in force, as logged.
    static func settingsJSON(_ settings: GeminiSettings) -> JSONValue {
        var members: [JSONMember] = []
        if let temperature = settings.temperature, let number = JSONValue.double(temperature) {
            members.append(JSONMember("temperature", number))
        }
        if let maxTokens = settings.maxTokens { members.append(JSONMember("maxTokens", .integer(maxTokens))) }
        switch settings.thinking {
        case .none: break
        case .budget(let budget): members.append(JSONMember("thinking", .integer(budget)))
        case .level(let level): members.append(JSONMember("thinking", .string(level)))
        }
        members.append(JSONMember("stream", .bool(settings.stream)))
        return .object(members)
    }

    /// The logged settings of an exchange over the Interactions API: `"api": "interactions"`
    /// and its `"interaction"` id after the settings (`settings`, the logged JSON text; `nil`
    /// for a `research` job, which sends none).
    static func withInteraction(_ settings: String?, id: String) -> String {
        var members: [JSONMember] = []
        if let settings, case .object(let sent)? = try? JSONValue(parsing: settings) {
            members = sent.filter { $0.key != "api" && $0.key != "interaction" }
        }
        return JSONValue.object(
            members + [JSONMember("api", .string("interactions")), JSONMember("interaction", .string(id))]
        ).compactText
    }

    /// `[{"mimeType":…,"sha256":…,"bytes":…}]` for inline media; file references by URI.
    static func mediaJSON(_ parts: [Part]) -> JSONValue {
        .array(
            parts.compactMap { part in
                if let blob = part.inlineData {
                    return .object([
                        JSONMember("mimeType", .string(blob.mimeType)),
                        JSONMember("sha256", .string(SHA256.hexDigest(blob.data))),
                        JSONMember("bytes", .integer(blob.data.count)),
                    ])
                }
                if let file = part.fileData {
                    return .object([
                        JSONMember("mimeType", file.mimeType.map(JSONValue.string) ?? .null),
                        JSONMember("fileUri", .string(file.fileUri)),
                    ])
                }
                return nil
            })
    }

    /// The turns as Gemini `Content` JSON (members in wire order), each inline medium replaced by a text part naming its
    /// type, hash and size (the log never holds media bytes).
    static func turnsJSON(_ turns: [Content]) -> String? {
        let stripped = turns.map { content in
            var content = content
            content.parts = content.parts?.map { part in
                guard let blob = part.inlineData else { return part }
                return .text(
                    "[media \(blob.mimeType) sha256:\(SHA256.hexDigest(blob.data)) \(blob.data.count) bytes]")
            }
            return content
        }
        return (try? OrderedJSONEncoder().encode(stripped))?.compactText
    }

    /// The conversation logged under the newest conversation ID, as turns to send again
    /// (thought signatures included); empty when none was logged.
    /// - Returns: the turns, the conversation ID, and the id of its last interaction when its
    ///   last exchange went over the Interactions API.
    static func lastConversation(_ store: LogStore) throws -> (
        turns: [Content], id: String?, interaction: String?
    ) {
        let entries = try store.lastConversation()
        var turns: [Content] = []
        for entry in entries {
            guard let text = entry.turns, let data = text.data(using: .utf8) else { continue }
            turns += try JSONDecoder().decode([Content].self, from: data)
        }
        let settings = entries.last?.settings.flatMap { try? JSONValue(parsing: $0) }
        return (answered(turns), entries.last?.conversationID, settings?["interaction"]?.stringValue)
    }

    /// `turns` without the exchanges whose calls were never answered, each dropped whole, back
    /// to the user turn that began it, so the resumed conversation is one the API accepts: one
    /// left waiting for `tool-reply` at the end, and one whose request after served calls failed
    /// (its served rounds are rows of their own, the failed request's row has no turns), which
    /// the session itself had left out.
    static func answered(_ turns: [Content]) -> [Content] {
        func calls(_ turn: Content) -> Bool {
            turn.role == "model" && (turn.parts ?? []).contains { $0.functionCall != nil }
        }
        func responses(_ turn: Content) -> Bool { (turn.parts ?? []).contains { $0.functionResponse != nil } }
        var kept: [Content] = []
        // Where the exchange being read began in `kept`: its first user turn.
        var start = 0
        for turn in turns {
            if responses(turn) {
                kept.append(turn)
                continue
            }
            if let last = kept.last, calls(last) { kept.removeSubrange(start...) }
            if turn.role != "model" { start = kept.count }
            kept.append(turn)
        }
        if let last = kept.last, calls(last) { kept.removeSubrange(start...) }
        return kept
    }
}

extension LogEntry {
    /// Sets the token counts from a call's `usageMetadata` (absent counts are 0).
    mutating func count(_ usage: UsageMetadata?) {
        promptTokens = usage?.promptTokenCount ?? 0
        outputTokens = usage?.candidatesTokenCount ?? 0
        thoughtsTokens = usage?.thoughtsTokenCount ?? 0
        totalTokens = usage?.totalTokenCount ?? 0
    }
}
