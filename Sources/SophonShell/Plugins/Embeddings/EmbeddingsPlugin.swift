import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Synchronization

/// Embeddings and judging answers by meaning (docs/embeddings.md): `embed`,
/// `embed-multi`, `similar`, `collections`, the settings `embed-model` and `judge-model`, and
/// the `expect` operators `similar` and `judge`. Calls go through the Gemini plugin's services
/// (the one client, transcript and retry path); vectors are kept in `embeddings.db`.
final class EmbeddingsPlugin: ShellPlugin {
    let name = "embeddings"
    /// The Gemini plugin, whose services the calls go through.
    let gemini: GeminiPlugin
    /// The database path, set by ``start(_:io:)``.
    private let path = Mutex<String?>(nil)
    /// The open store, kept for the run.
    private let store = Mutex<EmbeddingStore?>(nil)
    /// The last collection read for `similar`, kept while the database does not change (a
    /// second query of a session scans memory, not SQLite).
    private let cachedIndex = Mutex<EmbeddingIndex?>(nil)

    /// The embedding model when `set embed-model` was not given.
    static let defaultEmbedModel = "gemini-embedding-001"
    /// The embedding models `set embed-model` knows (docs/embeddings.md); another is used as a
    /// custom model, with a note.
    static let embedModels = [defaultEmbedModel, "gemini-embedding-2"]

    init(gemini: GeminiPlugin) {
        self.gemini = gemini
    }

    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {
        let file = SophonPaths().stateFolder.appendingPathComponent("embeddings.db").path
        path.withLock { $0 = file }
    }

    /// Whether `embeddings.db` is there (or open): the commands that only read (`similar`,
    /// `collections`) do not create it.
    var storeExists: Bool {
        if store.withLock({ $0 != nil }) { return true }
        guard let path = path.withLock({ $0 }) else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    /// The command failure of a store error, the one kind of each: a collection of another
    /// model or dimension is `invalidInput`, a missing collection `usage`.
    static func failure(_ error: EmbeddingStoreError, command: String) -> CommandFailure {
        switch error {
        case .mismatch: CommandFailure(kind: .invalidInput, message: "\(command): \(error)")
        case .noSuchCollection: CommandFailure(kind: .usage, message: "\(command): \(error)")
        }
    }

    /// Runs `body` with the run's store, opening it first if needed (a warning on stderr when
    /// a corrupt database was moved aside).
    /// - Throws: ``CommandFailure`` (`fileError`) when it cannot be opened; what `body` throws,
    ///   with ``EmbeddingStoreError`` and SQLite's errors as command failures.
    func withStore<Result>(command: String, io: ShellIO, _ body: (EmbeddingStore) throws -> Result) throws
        -> Result
    {
        guard let path = path.withLock({ $0 }) else {
            throw CommandFailure(
                kind: .internalError, message: "\(command): the embedding store is not set up")
        }
        do {
            return try store.withLock { open in
                let current = try open ?? Self.open(path, command: command, io: io)
                open = current
                return try body(current)
            }
        } catch let error as EmbeddingStoreError {
            throw Self.failure(error, command: command)
        } catch let error as LogStoreError {
            throw CommandFailure(kind: .fileError, message: "\(command): \(error)")
        }
    }

    private static func open(_ path: String, command: String, io: ShellIO) throws -> EmbeddingStore {
        if let problem = ImplicitFile.problem(path, role: "embedding database") {
            // SQLite would block reading a FIFO (docs/files.md, "Files the shell reads").
            throw CommandFailure(kind: .fileError, message: "\(command): " + problem)
        }
        let store = try EmbeddingStore(path: path)
        if let moved = store.movedAside {
            io.printError(EmbeddingsMessages.movedAside(path, to: moved))
        }
        return store
    }

    /// The collection's vectors in memory: the cached index while the database is unchanged,
    /// else read again.
    func index(of collection: String, command: String, io: ShellIO) throws -> EmbeddingIndex {
        try withStore(command: command, io: io) { store in
            let version = try store.dataVersion()
            if let cached = cachedIndex.withLock({ $0 }), cached.collection.name == collection,
                cached.version == version
            {
                return cached
            }
            let index = try store.index(of: collection)
            cachedIndex.withLock { $0 = index }
            return index
        }
    }

    /// The model `embed`, `embed-multi`, `similar` and `expect ... similar` use.
    static func embedModel(_ context: CommandContext) -> String {
        context.session.withEmbeddingsState { $0.embedModel } ?? defaultEmbedModel
    }

    /// The model a command embeds with: its `--model ID` (with `set embed-model`'s note on
    /// stderr when ID is not an embedding model of the catalog), else ``embedModel(_:)``.
    static func embedModel(_ parsed: ParsedOptions, context: CommandContext) -> String {
        guard let given = parsed.value("--model") else { return embedModel(context) }
        if let notice = ModelCommands.customModelNotice(given, catalog: embedModels) {
            context.io.printError(notice)
        }
        return GeminiModel(selection: given).id
    }

    /// The model `expect ... judge` asks: `set judge-model`, else the session's model.
    static func judgeModel(_ context: CommandContext) -> String {
        context.session.withEmbeddingsState { $0.judgeModel } ?? context.session.geminiSettings.model
    }

    /// `set embed-model ID`, `set judge-model ID|default`.
    func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        guard name == "embed-model" || name == "judge-model" else { return nil }
        guard words.count == 1, let word = words.first, !word.isEmpty else {
            throw CommandFailure(kind: .invalidSetting, message: "set \(name): expected one model ID")
        }
        let value: String? = word == "default" ? nil : GeminiModel(selection: word).id
        if let value, !GeminiModel.isWellFormedID(value) {
            throw CommandFailure(
                kind: .invalidSetting, message: "set \(name): " + ShellMessages.invalidModelID(word))
        }
        // A misspelt model would fail only at the first call: the same note as `set model`.
        if value != nil,
            let notice = name == "embed-model"
                ? ModelCommands.customModelNotice(word, catalog: Self.embedModels)
                : ModelCommands.customModelNotice(word)
        {
            context.io.printError(notice)
        }
        context.session.withEmbeddingsState { state in
            if name == "embed-model" { state.embedModel = value } else { state.judgeModel = value }
        }
        return CommandResult.none
    }

    /// `show embed-model`, `show judge-model`.
    func show(_ name: String, context: CommandContext) -> CommandResult? {
        switch name {
        case "embed-model": .text(Self.embedModel(context))
        case "judge-model": .text(Self.judgeModel(context))
        default: nil
        }
    }

    var settings: [SettingDefinition] {
        [
            SettingDefinition(name: "embed-model", values: Self.embedModels),
            SettingDefinition(name: "judge-model", values: ["default"] + GeminiPlugin.modelNames),
        ]
    }

    var expectOperators: [String] { ["similar", "judge"] }

    func expect(_ op: String, left: ExpectOperand, right: [String], context: CommandContext) async throws
        -> ExpectOutcome
    {
        guard let services = gemini.services else {
            throw CommandFailure(kind: .internalError, message: "the Gemini services are not set up")
        }
        return try await SemanticExpect.evaluate(
            op, left: left, right: right, context: context, services: services, plugin: self)
    }

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "embed",
                usage: "embed [--model ID] [--dimensions N] [--task TYPE] [--dry-run] [--json] TEXT",
                summary: "the embedding vector of TEXT (embed-model, default gemini-embedding-001)",
                options: EmbedCommands.embedOptions, argumentStyle: .raw(RawArgumentSpec()),
                takesJSONFlag: true,
                run: gemini.needingServices { try await EmbedCommands.embed($0, context: $1, services: $2) }),
            PluginCommand(
                name: "embed-multi",
                usage:
                    "embed-multi COLLECTION FILE [--id FIELD] [--text FIELD] [--model ID] [--dimensions N] [--dry-run] [--json]",
                summary: "embed JSONL or CSV rows into a collection of embeddings.db (stored rows skipped)",
                options: EmbedMultiCommand.declared, completion: .files, takesJSONFlag: true,
                run: gemini.needingServices { [self] in
                    try await EmbedMultiCommand.run($0, context: $1, services: $2, plugin: self)
                }),
            PluginCommand(
                name: "similar", usage: "similar COLLECTION TEXT [-n N] [--dry-run] [--json]",
                summary: "the N stored rows closest to TEXT by cosine (10)",
                options: EmbedCommands.similarOptions, takesJSONFlag: true,
                run: gemini.needingServices { [self] in
                    try await EmbedCommands.similar($0, context: $1, services: $2, plugin: self)
                }),
            PluginCommand(
                name: "collections", usage: "collections [--json] | collections delete NAME",
                summary: "the collections of embeddings.db (model, dimensions, rows), or delete one",
                options: [CommandOption.json], takesJSONFlag: true,
                run: { [self] request, context in
                    try EmbedCommands.collections(request, context: context, plugin: self)
                }),
        ]
    }

}

/// The embeddings plugin's part of a session: `set embed-model` and `set judge-model`.
struct EmbeddingsSessionState: PluginSessionState {
    /// The embedding model; `nil`: ``EmbeddingsPlugin/defaultEmbedModel``.
    var embedModel: String?
    /// The judge's model; `nil`: the session's model.
    var judgeModel: String?
}

extension ShellSession {
    /// Runs `body` with exclusive access to the embeddings plugin's state in this session.
    func withEmbeddingsState<Result>(_ body: (inout EmbeddingsSessionState) throws -> Result) rethrows
        -> Result
    {
        try withPluginState(EmbeddingsSessionState.self, body)
    }
}

/// The wording of the embeddings plugin (docs/embeddings.md).
enum EmbeddingsMessages {
    /// The fixed instruction of the `expect ... judge` grader (docs/embeddings.md).
    static let graderInstruction = """
        You are a strict grader. You are given a RUBRIC and an OUTPUT produced by another model. \
        Decide whether the OUTPUT satisfies the RUBRIC. Answer with JSON only: "pass" (true when the \
        OUTPUT satisfies the RUBRIC), "score" (a number from 0 to 1: how well it satisfies it) and \
        "reason" (one or two sentences on why). Judge only against the RUBRIC.
        """

    /// The judge's user turn.
    static func graderPrompt(rubric: String, output: String) -> String {
        "RUBRIC:\n\(rubric)\n\nOUTPUT:\n\(output)"
    }

    /// `warning: PATH was corrupt: moved it to NEW and started a new embedding database`.
    static func movedAside(_ path: String, to moved: String) -> String {
        ShellMessages.warning(
            "\(path) was corrupt: moved it to \(moved) and started a new embedding database")
    }

    /// A score as the failure text shows it: two decimals (`0.62`).
    static func score(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        var text = String(format: "%.2f", rounded)
        if text == "-0.00" { text = "0.00" }
        return text
    }

    /// `expected LEFT similar RIGHT (score 0.62 < 0.8)`: the threshold as written.
    static func similarFailed(left: String, right: String, score: Double, threshold: String) -> String {
        "expected \(left) similar \(right) (score \(Self.score(score)) < \(threshold))"
    }

    /// `expected LEFT judge RUBRIC (pass false, score 0.30, threshold 0.5: REASON)`.
    static func judgeFailed(
        left: String, rubric: String, pass: Bool, score: Double, threshold: String, reason: String
    )
        -> String
    {
        "expected \(left) judge \(rubric) (pass \(pass), score \(Self.score(score)), threshold \(threshold): \(reason))"
    }

    /// `the threshold of similar is a score from 0 to 1, not 1.5` (after `expect: `).
    static func thresholdOutOfRange(_ op: String, _ given: String) -> String {
        "the threshold of \(op) is a score from 0 to 1, not \(given)"
    }

    /// `judge: the rubric is empty` (after `expect: `).
    static let emptyRubric = "judge: the rubric is empty"

    /// The judge's reply did not fit `{pass, score, reason}`: the expect fails with why.
    static func judgeUnfit(_ why: String) -> String {
        "the judge's reply does not fit {pass: boolean, score: number (0..1), reason: string}: \(why)"
    }

    /// `embed-multi`'s report line.
    static func embedded(collection: String, embedded: Int, skipped: Int, requests: Int) -> String {
        "\(collection): \(embedded) embedded, \(skipped) skipped (already stored), "
            + "\(requests) request\(requests == 1 ? "" : "s")"
    }

    /// One `collections` line: `NAME  MODEL  DIMS dimensions  N rows`.
    static func collectionLine(name: String, model: String, dimensions: Int, count: Int) -> String {
        "\(name)  \(model)  \(dimensions) dimension\(dimensions == 1 ? "" : "s")  \(count) row\(count == 1 ? "" : "s")"
    }
}

/// The one way the embeddings plugin asks for vectors (docs/embeddings.md): the session's client
/// (key checked, transcript: live, recorded or replayed), the session's retry policy through the
/// library's one call path, `--dry-run` through ``DryRunTransport``, the call counted in
/// `show usage` and logged in `logs.db`.
enum EmbeddingCall {
    /// Embeds `texts` with `model` (`embedContent` for one text when `single`, else
    /// `batchEmbedContents` in requests of at most 100).
    /// - Returns: one vector per text, and the `--json` members `model`, `usage`, `retries`.
    /// - Throws: ``CommandFailure``; ``AskCommands/DryRun`` with the first request of a dry run.
    static func embed(
        _ texts: [String], model: String, options: GeminiEmbeddingOptions, single: Bool = false,
        command: String,
        dryRun: Bool, context: CommandContext, services: GeminiServices
    ) async throws -> (vectors: [[Float]], envelope: [JSONMember]) {
        let transport = dryRun ? DryRunTransport() : nil
        let client =
            try transport.map { services.makeDryRunClient(session: context.session, transport: $0) }
            ?? GeminiCall.client(command: command, context: context, services: services)
        let policy = context.session.withGeminiState { $0.retryPolicy }
        let started = ContinuousClock.now
        let time = Date()
        services.retriesInFlight.reset()
        do {
            let embeddings: [GeminiEmbedding]
            if single, texts.count == 1 {
                embeddings = [
                    try await client.embedContent(
                        texts[0], model: GeminiModel(selection: model), options: options, retryPolicy: policy)
                ]
            } else {
                embeddings = try await client.batchEmbedContents(
                    texts, model: GeminiModel(selection: model), options: options, retryPolicy: policy)
            }
            // The API counts no tokens for embeddings: the cost is unknown (docs/cost.md).
            let envelope = GeminiCall.finish(
                model: model, requested: model, usage: nil, counted: false,
                retries: services.retriesInFlight.value,
                usedFallback: false, started: started, context: context)
            let dimensions = embeddings.first?.dimensions ?? 0
            log(
                command: command, model: model, texts: texts, time: time, started: started,
                answer:
                    "\(embeddings.count) vector\(embeddings.count == 1 ? "" : "s") of \(dimensions) dimensions",
                error: nil, context: context)
            return (embeddings.map(\.values), envelope)
        } catch let stopped as DryRunTransport.Stopped {
            guard let sent = transport?.request else { throw stopped }
            throw AskCommands.DryRun(sent)
        } catch let error as GeminiError {
            let failure = GeminiCall.failure(error, context: context)
            log(
                command: command, model: model, texts: texts, time: time, started: started, answer: nil,
                error: "\(failure.kind.rawValue): \(failure.message)", context: context)
            throw failure
        }
    }

    /// Logs one embedding exchange (docs/logs.md): the texts as the prompt (one per line), the
    /// vectors' count and dimension as the answer (the log never holds the vectors).
    private static func log(
        command: String, model: String, texts: [String], time: Date, started: ContinuousClock.Instant,
        answer: String?, error: String?, context: CommandContext
    ) {
        let elapsed = ContinuousClock.now - started
        let entry = LogEntry(
            time: time, command: command, conversationID: nil, model: model,
            prompt: texts.joined(separator: "\n"), answer: answer,
            durationMilliseconds: elapsed.wholeMilliseconds,
            error: error)
        ExchangeLog.write(entry, context: context)
    }
}
