import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Synchronization

/// Embeddings and judging answers by meaning (PRODUCT §13, docs/embeddings.md): `embed`,
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

    init(gemini: GeminiPlugin) {
        self.gemini = gemini
    }

    func start(_ options: PluginRunOptions, io: ShellIO) throws(PluginStartError) {
        let file = SophonPaths().stateFolder.appendingPathComponent("embeddings.db").path
        path.withLock { $0 = file }
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
            switch error {
            case .mismatch: throw CommandFailure(kind: .invalidInput, message: "\(command): \(error)")
            case .noSuchCollection: throw CommandFailure(kind: .usage, message: "\(command): \(error)")
            }
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
                kind: .invalidSetting, message: "set \(name): '\(word)' is not a valid model ID")
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
            SettingDefinition(name: "embed-model", values: [Self.defaultEmbedModel, "gemini-embedding-2"]),
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
                options: EmbedMultiCommand.declared, completion: .files,
                run: gemini.needingServices { [self] in
                    try await EmbedMultiCommand.run($0, context: $1, services: $2, plugin: self)
                }),
            PluginCommand(
                name: "similar", usage: "similar COLLECTION TEXT [-n N] [--dry-run] [--json]",
                summary: "the N stored rows closest to TEXT by cosine (10)",
                options: EmbedCommands.similarOptions,
                run: gemini.needingServices { [self] in
                    try await EmbedCommands.similar($0, context: $1, services: $2, plugin: self)
                }),
            PluginCommand(
                name: "collections", usage: "collections [--json] | collections delete NAME",
                summary: "the collections of embeddings.db (model, dimensions, rows), or delete one",
                options: [CommandOption.json],
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
