import Foundation
import SophonCore
import SophonGemini

/// `cache create|list|show|extend|delete` (docs/commands.md, "cache"): explicit context caches,
/// with the local journal `caches.json` mapping the names given here to the server's IDs.
enum CacheCommand {
    /// The options of `cache create` and `cache extend`, declared once.
    static let declared = [
        CommandOption(
            name: "--system", value: "TEXT", help: "the system instruction the cache holds (create)",
            missing: "a text"),
        CommandOption(
            name: "--ttl", value: "DURATION", help: "how long it lives: 30m, 1h, 2h (create: 1h; extend)",
            missing: "a duration"),
        CommandOption(name: "--dry-run", help: "print the request instead of sending it"),
    ]

    /// Runs `cache SUBCOMMAND ...`.
    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        var words = request.arguments[...]
        guard let sub = words.popFirst() else { throw context.usageFailure("cache") }
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(Array(words), declared: declared)
        } catch {
            throw error.failure(command: "cache \(sub)")
        }
        if let refusal = try VertexSetup.cacheRefusal(session: context.session, services: services) {
            throw refusal
        }
        // `--dry-run` (or `set dry-run on`): the first request the subcommand would send is
        // printed, not sent (for `show`, `extend` and `delete` of a NAME the local journal does
        // not hold, that is the list request that looks it up); the journal is not changed.
        let dryRun =
            parsed.has("--dry-run") || context.session.geminiSettings.dryRun ? DryRunTransport() : nil
        let client =
            try dryRun.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(command: "cache", context: context, services: services)
        let journalURL = CacheJournal.url(services.paths)
        do {
            switch sub {
            case "create":
                return try await create(parsed, client: client, journalURL: journalURL, context: context)
            case "list":
                guard parsed.operands.isEmpty else {
                    throw context.usageFailure("cache", hint: "list takes no NAME")
                }
                return try await list(client: client, journalURL: journalURL)
            case "show":
                let entry = try await resolve(one(parsed, context), client: client, journalURL: journalURL)
                let cache = try await client.getCachedContent(entry.id)
                return report(try refresh(entry, from: cache, journalURL: journalURL), detailed: true)
            case "extend":
                guard let ttl = try duration(parsed, command: "cache extend") else {
                    throw context.usageFailure("cache", hint: "extend needs --ttl DURATION")
                }
                let entry = try await resolve(one(parsed, context), client: client, journalURL: journalURL)
                let cache = try await client.extendCachedContent(entry.id, ttl: ttl)
                return report(try refresh(entry, from: cache, journalURL: journalURL), detailed: false)
            case "delete":
                let entry = try await resolve(one(parsed, context), client: client, journalURL: journalURL)
                try await client.deleteCachedContent(entry.id)
                var journal = try CacheJournal.load(journalURL)
                journal.remove(entry.id)
                try journal.save(journalURL)
                context.session.withDeploymentState { state in
                    if state.cache?.id == entry.id { state.cache = nil }
                }
                return .none
            default:
                throw context.usageFailure("cache", hint: "unknown subcommand '\(sub)'")
            }
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        } catch let error as DryRunTransport.Stopped {
            guard let sent = dryRun?.request else { throw error }
            return AskCommands.DryRun(sent).result
        }
    }

    /// `cache create NAME (TEXT | @FILE...) [--system TEXT] [--ttl 1h]`: the texts and files as
    /// one user turn (a text file as text, media inline), the session's declared tools with
    /// it, for the session's model.
    private static func create(
        _ parsed: ParsedOptions, client: GeminiAPIClient, journalURL: URL, context: CommandContext
    ) async throws -> CommandResult {
        var operands = parsed.operands[...]
        guard let name = operands.popFirst(), !name.isEmpty else {
            throw context.usageFailure("cache", hint: "create needs a NAME")
        }
        guard !operands.isEmpty else {
            throw context.usageFailure("cache", hint: "create needs TEXT or @FILE")
        }
        var parts: [Part] = []
        var texts: [String] = []
        for word in operands {
            guard let path = try ExtractCommand.filePath(word, command: "cache", context: context) else {
                texts.append(word)
                continue
            }
            parts.append(try filePart(path, context: context))
        }
        if !texts.isEmpty { parts.insert(.text(texts.joined(separator: " ")), at: 0) }
        if let existing = try CacheJournal.load(journalURL).entry(named: name) {
            throw CommandFailure(
                kind: .invalidInput,
                message:
                    "cache create: '\(name)' already names \(existing.id); delete it first or pick another name"
            )
        }
        let model = context.session.geminiSettings.model
        let (tools, toolConfig) = GeminiCall.sessionTools(servedToo: false, context: context)
        let system = parsed.value("--system").flatMap {
            $0.isEmpty ? nil : Content(role: nil, parts: [.text($0)])
        }
        let request = GeminiCacheRequest(
            contents: [Content(role: "user", parts: parts)], systemInstruction: system, tools: tools,
            toolConfig: toolConfig, displayName: name,
            ttl: try duration(parsed, command: "cache create") ?? .seconds(3600))
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let cache = try await client.createCachedContent(
            request, model: GeminiModel(selection: model), retryPolicy: policy)
        guard let id = cache.name else {
            throw CommandFailure(kind: .http, message: "cache create: the server's reply names no cache")
        }
        let entry = CacheJournal.Entry(
            name: name, id: id, model: cache.modelID ?? model, tokens: cache.tokenCount,
            expireTime: cache.expireTime, system: system != nil, tools: tools != nil)
        var journal = try CacheJournal.load(journalURL)
        journal.put(entry)
        try journal.save(journalURL)
        return report(entry, detailed: false)
    }

    /// A file as a cached part, read as `attach` reads it (``AttachCommand/readFile(_:mime:command:context:)``:
    /// not a folder, not empty, a type the API takes): UTF-8 text as text, anything else as
    /// inline media within the request's 20 MB.
    private static func filePart(_ path: String, context: CommandContext) throws -> Part {
        let file = try AttachCommand.readFile(path, mime: nil, command: "cache create", context: context)
        if file.type == "text/plain", let text = String(data: file.data, encoding: .utf8) {
            return .text(text)
        }
        guard file.data.count <= AttachCommand.inlineLimit else {
            var failure = GeminiCall.failure(
                .mediaTooLarge(path: file.path, bytes: file.data.count, limit: AttachCommand.inlineLimit),
                context: context)
            failure.message = "cache create: " + failure.message
            throw failure
        }
        return .inlineData(mimeType: file.type, data: file.data)
    }

    /// `cache list`: the caches the server holds, by local name where the journal has one
    /// (else the display name); journal entries the server no longer holds (expired, deleted
    /// elsewhere) are dropped from the journal.
    private static func list(client: GeminiAPIClient, journalURL: URL) async throws -> CommandResult {
        let caches = try await client.listAllCachedContents()
        var journal = try CacheJournal.load(journalURL)
        let live = Set(caches.compactMap(\.name))
        journal.caches.removeAll { !live.contains($0.id) }
        try journal.save(journalURL)
        let entries = caches.map { cache in
            let known = journal.entry(named: cache.name ?? "")
            return CacheJournal.Entry(
                name: known?.name ?? cache.displayName ?? cache.name ?? "", id: cache.name ?? "",
                model: cache.modelID ?? known?.model ?? "", tokens: cache.tokenCount,
                expireTime: cache.expireTime, system: known?.system ?? false, tools: known?.tools ?? false)
        }
        let text = entries.isEmpty ? "no context caches" : entries.map(line).joined(separator: "\n")
        return .report(text, data: .array(entries.map(json)))
    }

    /// The journal entry for NAME (a local name or `cachedContents/ID`), else a cache on the
    /// server with that display name.
    /// - Throws: ``CommandFailure`` `cacheNotFound`.
    private static func resolve(_ name: String, client: GeminiAPIClient, journalURL: URL) async throws
        -> CacheJournal.Entry
    {
        if let entry = try CacheJournal.load(journalURL).entry(named: name) { return entry }
        if let cache = try await client.listAllCachedContents().last(where: {
            $0.displayName == name || $0.name == name
        }), let id = cache.name {
            return CacheJournal.Entry(
                name: cache.displayName ?? id, id: id, model: cache.modelID ?? "", tokens: cache.tokenCount,
                expireTime: cache.expireTime, system: false, tools: false)
        }
        throw CommandFailure(kind: .cacheNotFound, message: "no cache named '\(name)'")
    }

    /// `entry` with the server's newer expiry and size, saved to the journal when it is there.
    private static func refresh(_ entry: CacheJournal.Entry, from cache: GeminiCachedContent, journalURL: URL)
        throws -> CacheJournal.Entry
    {
        var entry = entry
        entry.expireTime = cache.expireTime ?? entry.expireTime
        if cache.usageMetadata != nil { entry.tokens = cache.tokenCount }
        var journal = try CacheJournal.load(journalURL)
        if journal.entry(named: entry.name) != nil {
            journal.put(entry)
            try journal.save(journalURL)
        }
        return entry
    }

    private static func one(_ parsed: ParsedOptions, _ context: CommandContext) throws -> String {
        guard parsed.operands.count == 1, let name = parsed.operands.first else {
            throw context.usageFailure("cache", hint: "one NAME")
        }
        return name
    }

    /// `--ttl DURATION`, `nil` when not given.
    /// - Throws: ``CommandFailure`` `usage` for a duration that is not positive.
    private static func duration(_ parsed: ParsedOptions, command: String) throws -> Duration? {
        guard let text = parsed.value("--ttl") else { return nil }
        guard let duration = DurationParser.parse(text), duration >= .seconds(1) else {
            throw CommandFailure(
                kind: .usage,
                message: "\(command): --ttl takes a duration such as 30m, 1h or 2h, got '\(text)'")
        }
        return duration
    }

    /// `NAME  cachedContents/ID  MODEL  N tokens  expires TIME`.
    static func line(_ entry: CacheJournal.Entry) -> String {
        "\(entry.name)  \(entry.id)  \(entry.model)  \(entry.tokens) tokens  expires \(entry.expireTime ?? "?")"
    }

    /// The `--json` object of a cache: name, id, model, tokens, expireTime.
    static func json(_ entry: CacheJournal.Entry) -> JSONValue {
        .object([
            JSONMember("name", .string(entry.name)), JSONMember("id", .string(entry.id)),
            JSONMember("model", .string(entry.model)), JSONMember("tokens", .integer(entry.tokens)),
            JSONMember("expireTime", entry.expireTime.map(JSONValue.string) ?? .null),
        ])
    }

    private static func report(_ entry: CacheJournal.Entry, detailed: Bool) -> CommandResult {
        guard detailed else { return .report(line(entry), data: json(entry)) }
        let text = [
            "name: \(entry.name)", "id: \(entry.id)", "model: \(entry.model)", "tokens: \(entry.tokens)",
            "expires: \(entry.expireTime ?? "?")",
        ].joined(separator: "\n")
        return .report(text, data: json(entry))
    }
}

/// `caches.json` in the state folder: the context caches `cache create` made, by the local
/// NAME the user gave, with the server's ID (`cachedContents/ID`), so `set cache NAME` and the
/// other `cache` commands need no listing call (docs/commands.md, "cache").
struct CacheJournal: JournalFile {
    static let kind = "cache journal"

    /// One cache.
    struct Entry: Codable, Sendable, Equatable {
        /// The local name (`cache create NAME`), also the cache's display name.
        var name: String
        /// `cachedContents/ID` (on Vertex AI `projects/P/locations/L/cachedContents/ID`).
        var id: String
        /// The model ID it was made for (a call using it goes to that model).
        var model: String
        /// Tokens it holds.
        var tokens: Int
        /// When it expires (RFC 3339), as last reported.
        var expireTime: String?
        /// Whether it holds a system instruction.
        var system: Bool
        /// Whether it holds tool declarations.
        var tools: Bool
    }

    var caches: [Entry] = []

    /// A cache the journal does not hold, named by its ID (`cachedContents/ID`, on Vertex AI
    /// `projects/P/locations/L/cachedContents/ID`) for `set cache`: model unknown (`""`), holding
    /// neither a system instruction nor tools as far as is known; `nil` when `id` is not of
    /// that form.
    static func unjournaled(_ id: String) -> Entry? {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        let cacheID =
            parts.count == 2 && parts[0] == "cachedContents"
            || parts.count == 6 && parts[0] == "projects" && parts[2] == "locations"
                && parts[4] == "cachedContents"
        guard cacheID, parts.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return nil }
        return Entry(name: id, id: id, model: "", tokens: 0, expireTime: nil, system: false, tools: false)
    }

    /// The journal's file in `paths`' state folder.
    static func url(_ paths: SophonPaths) -> URL {
        paths.stateFolder.appendingPathComponent("caches.json")
    }

    /// The entry named `name` (local name or `cachedContents/ID`).
    func entry(named name: String) -> Entry? {
        caches.last { $0.name == name || $0.id == name }
    }

    /// Replaces the entry with `entry`'s name, or adds it.
    mutating func put(_ entry: Entry) {
        caches.removeAll { $0.name == entry.name }
        caches.append(entry)
    }

    /// Removes the entry named `name` (local name or ID).
    mutating func remove(_ name: String) {
        caches.removeAll { $0.name == name || $0.id == name }
    }
}
