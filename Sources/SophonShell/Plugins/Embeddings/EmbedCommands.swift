import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// `embed TEXT`, `similar COLLECTION TEXT [-n N]` and `collections` (docs/embeddings.md).
enum EmbedCommands {
    static let dryRunOption = CommandOption(
        name: "--dry-run", help: "print the request instead of sending it")
    static let modelOption = CommandOption(
        name: "--model", value: "ID", help: "the embedding model (embed-model)", missing: "a model ID",
        values: EmbeddingsPlugin.embedModels)
    static let dimensionsOption = CommandOption(
        name: "--dimensions", value: "N", help: "outputDimensionality: a shorter vector (MRL)",
        missing: "a positive whole number")

    /// The options of `embed`.
    static let embedOptions = [
        modelOption, dimensionsOption,
        CommandOption(
            name: "--task", value: "TYPE", help: "taskType: RETRIEVAL_QUERY, SEMANTIC_SIMILARITY, ...",
            missing: "a task type",
            // The API's task types; `TASK_TYPE_UNSPECIFIED` is what no option sends.
            values: GeminiEmbeddingTaskType.allCases.filter { $0 != .unspecified }.map(\.rawValue)),
        dryRunOption, CommandOption.json,
    ]

    /// The options of `similar`.
    static let similarOptions = [
        CommandOption(name: "-n", value: "N", help: "how many rows (10)", missing: "a positive whole number"),
        dryRunOption, CommandOption.json,
    ]

    /// How many rows `similar` prints without `-n`.
    static let defaultCount = 10

    /// `embed [--model ID] [--dimensions N] [--task TYPE] [--dry-run] [--json] TEXT`: the vector
    /// (`$last`), printed as compact JSON; `--json` (taken out by the shell:
    /// ``PluginCommand/takesJSONFlag``) prints it as `sophon --json` does, one object that adds
    /// `dimensions`, `model`, `usage`, `retries`.
    static func embed(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws
        -> CommandResult
    {
        let parsed = try CommandOption.parse(request, command: "embed", declared: embedOptions)
        if let extra = parsed.operands.first {
            throw OptionError.unknown(extra, among: embedOptions.map(\.name)).failure(command: "embed")
        }
        // `embed ""` is an empty text (refused below, as `similar c ""`), not a missing one.
        guard let text = request.rawArgument else { throw context.usageFailure("embed") }
        var options = GeminiEmbeddingOptions(outputDimensionality: try dimensions(parsed, command: "embed"))
        if let task = parsed.value("--task") {
            guard let type = GeminiEmbeddingTaskType(rawValue: task.uppercased()) else {
                let names = GeminiEmbeddingTaskType.allCases.map(\.rawValue)
                let closest = Suggestions.closest(to: task.uppercased(), in: names).first
                throw CommandFailure(
                    kind: .usage,
                    message: "embed: --task: '\(task)' is not one of \(names.joined(separator: ", "))"
                        + ShellMessages.didYouMean(closest))
            }
            options.taskType = type
        }
        try refuseEmpty(text, command: "embed")
        let model = EmbeddingsPlugin.embedModel(parsed, context: context)
        do {
            let (vectors, envelope) = try await EmbeddingCall.embed(
                [text], model: model, options: options, single: true, command: "embed",
                dryRun: dryRun(parsed, context), context: context, services: services)
            let vector = JSONValue.array(vectors[0].map(number))
            let members = [JSONMember("dimensions", .integer(vectors[0].count))] + envelope
            return .reply(CallReply(value: vector, display: vector.compactText, envelope: members))
        } catch let dryRun as AskCommands.DryRun {
            return dryRun.result
        }
    }

    /// `similar COLLECTION TEXT [-n N]`: TEXT embedded with the collection's model and
    /// dimension, then the N closest rows by cosine, best first: `SCORE  ID` lines (four
    /// decimals); `--json`: `{collection, model, matches: [{id, score, metadata}], usage,
    /// retries, cost}` as the result of the one-line envelope.
    static func similar(
        _ request: CommandRequest, context: CommandContext, services: GeminiServices, plugin: EmbeddingsPlugin
    ) async throws -> CommandResult {
        let parsed = try CommandOption.parse(request, command: "similar", declared: similarOptions)
        guard parsed.operands.count >= 2 else { throw context.usageFailure("similar") }
        let name = parsed.operands[0]
        let text = parsed.operands.dropFirst().joined(separator: " ")
        var count = defaultCount
        if let value = parsed.value("-n") {
            guard let number = Int(value), number > 0 else {
                throw CommandFailure(kind: .usage, message: "similar: -n needs a positive whole number")
            }
            count = number
        }
        try refuseEmpty(text, command: "similar")
        guard plugin.storeExists else {
            throw EmbeddingsPlugin.failure(.noSuchCollection(name), command: "similar")
        }
        let stored = try plugin.withStore(command: "similar", io: context.io) { store in
            guard let collection = try store.collection(named: name) else {
                throw EmbeddingStoreError.noSuchCollection(name)
            }
            return collection
        }
        let options = GeminiEmbeddingOptions(
            taskType: .retrievalQuery, outputDimensionality: stored.dimensions)
        let vectors: [[Float]]
        let envelope: [JSONMember]
        do {
            (vectors, envelope) = try await EmbeddingCall.embed(
                [text], model: stored.model, options: options, command: "similar",
                dryRun: dryRun(parsed, context), context: context, services: services)
        } catch let dryRun as AskCommands.DryRun {
            return dryRun.result
        }
        guard vectors[0].count == stored.dimensions else {
            throw CommandFailure(
                kind: .invalidInput,
                message: "similar: "
                    + EmbeddingStoreError.mismatch(
                        collection: name, storedModel: stored.model, storedDimensions: stored.dimensions,
                        model: stored.model, dimensions: vectors[0].count
                    ).description)
        }
        let index = try plugin.index(of: name, command: "similar", io: context.io)
        let matches = index.nearest(to: vectors[0], limit: count)
        let lines = matches.map { String(format: "%.4f", Double($0.score)) + "  " + $0.id }
        let data = JSONValue.object(
            [
                JSONMember("collection", .string(name)), JSONMember("model", .string(stored.model)),
                JSONMember(
                    "matches",
                    .array(
                        matches.map { match in
                            .object([
                                JSONMember("id", .string(match.id)),
                                JSONMember("score", number(match.score)),
                                JSONMember(
                                    "metadata",
                                    index.metadata[match.position].flatMap { try? JSONValue(parsing: $0) }
                                        ?? .null),
                            ])
                        })),
            ] + envelope.filter { $0.key != "model" })
        // `--json` (taken out by the shell: ``PluginCommand/takesJSONFlag``) prints `data` as
        // the result of the one-line envelope, as `sophon --json similar` does.
        return .report(lines.isEmpty ? "(no rows)" : lines.joined(separator: "\n"), data: data)
    }

    /// `collections [--json]`: `NAME  MODEL  DIMS dimensions  N rows` per collection (`--json`:
    /// `{"collections": [{name, model, dimensions, count}]}`); `collections delete NAME`.
    static func collections(_ request: CommandRequest, context: CommandContext, plugin: EmbeddingsPlugin)
        throws
        -> CommandResult
    {
        let parsed = try CommandOption.parse(request, command: "collections", declared: [CommandOption.json])
        let operands = parsed.operands
        if operands.first == "delete" {
            guard operands.count == 2 else { throw context.usageFailure("collections") }
            let deleted =
                try plugin.storeExists
                && plugin.withStore(command: "collections", io: context.io) {
                    try $0.delete(collection: operands[1])
                }
            guard deleted else {
                throw EmbeddingsPlugin.failure(.noSuchCollection(operands[1]), command: "collections delete")
            }
            return .none
        }
        if let extra = operands.first {
            throw OptionError.unknown(extra, among: ["--json", "delete"]).failure(command: "collections")
        }
        let all =
            plugin.storeExists
            ? try plugin.withStore(command: "collections", io: context.io) { try $0.collections() } : []
        // One object with the data as named members (docs/commands.md), not a bare array.
        let list = JSONValue.array(
            all.map { collection in
                .object([
                    JSONMember("name", .string(collection.name)),
                    JSONMember("model", .string(collection.model)),
                    JSONMember("dimensions", .integer(collection.dimensions)),
                    JSONMember("count", .integer(collection.count)),
                ])
            })
        let data = JSONValue.object([JSONMember("collections", list)])
        let text =
            all.isEmpty
            ? "(no collections)"
            : all.map {
                EmbeddingsMessages.collectionLine(
                    name: $0.name, model: $0.model, dimensions: $0.dimensions, count: $0.count)
            }.joined(separator: "\n")
        return .report(text, data: data)
    }

    /// A Float32 as a JSON number, in its shortest text (`0.707107`, `1.0`); `null` when not
    /// finite.
    static func number(_ value: Float) -> JSONValue {
        JSONNumber(text: "\(value)").map(JSONValue.number) ?? .null
    }

    /// `--dimensions N`, checked; `nil` when not given.
    static func dimensions(_ parsed: ParsedOptions, command: String) throws -> Int? {
        guard let value = parsed.value("--dimensions") else { return nil }
        guard let number = Int(value), number > 0 else {
            throw CommandFailure(
                kind: .usage, message: "\(command): --dimensions needs a positive whole number")
        }
        return number
    }

    /// `--dry-run` or `set dry-run on`.
    static func dryRun(_ parsed: ParsedOptions, _ context: CommandContext) -> Bool {
        parsed.has("--dry-run") || context.session.geminiSettings.dryRun
    }

    /// An empty (or blank) text is refused before anything is sent: the API refuses it.
    static func refuseEmpty(_ text: String, command: String) throws {
        guard text.allSatisfy(\.isWhitespace) else { return }
        throw CommandFailure(kind: .invalidInput, message: "\(command): the text to embed is empty")
    }
}
