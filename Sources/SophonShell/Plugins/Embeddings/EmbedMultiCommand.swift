import Foundation
import SophonCore
import SophonGemini
import SophonLogs

/// `embed-multi COLLECTION FILE [--id FIELD] [--text FIELD] [--model ID] [--dimensions N]`
/// (docs/embeddings.md): the rows of a JSON Lines or CSV file embedded into a collection of
/// `embeddings.db`, 100 rows per request, each request's rows stored in one transaction. A row
/// whose ID is stored with the same content hash and model is skipped, so a killed run resumes
/// without embedding again what it stored. The whole file is checked before anything is sent.
enum EmbedMultiCommand {
    /// The options of `embed-multi`.
    static let declared = [
        CommandOption(
            name: "--id", value: "FIELD", help: "the field or column of the row's ID (id)",
            missing: "a field name"),
        CommandOption(
            name: "--text", value: "FIELD", help: "the field or column of the text to embed (text)",
            missing: "a field name"),
        EmbedCommands.modelOption, EmbedCommands.dimensionsOption, EmbedCommands.dryRunOption,
        CommandOption.json,
    ]

    static func run(
        _ request: CommandRequest, context: CommandContext, services: GeminiServices, plugin: EmbeddingsPlugin
    ) async throws -> CommandResult {
        let parsed = try CommandOption.parse(request, command: "embed-multi", declared: declared)
        guard parsed.operands.count == 2 else { throw context.usageFailure("embed-multi") }
        let (collection, file) = (parsed.operands[0], parsed.operands[1])
        let idField = parsed.value("--id") ?? "id"
        let textField = parsed.value("--text") ?? "text"
        let model = EmbeddingsPlugin.embedModel(parsed, context: context)
        let path = context.resolve(file)
        func reader() throws -> EmbeddingInputReader {
            try EmbeddingInputReader(path: path, shown: file, idField: idField, textField: textField)
        }
        // First pass: every row well formed and every ID once, or nothing is sent.
        try RereadableInput.require(path, shown: file, command: "embed-multi")
        let total = try reader().checkAll()

        let (stored, hashes) = try plugin.withStore(command: "embed-multi", io: context.io) { store in
            (
                try store.collection(named: collection),
                try store.storedHashes(collection: collection, model: model)
            )
        }
        let asked = try EmbedCommands.dimensions(parsed, command: "embed-multi")
        if let stored, stored.model != model || (asked != nil && asked != stored.dimensions) {
            throw CommandFailure(
                kind: .invalidInput,
                message: "embed-multi: "
                    + EmbeddingStoreError.mismatch(
                        collection: collection, storedModel: stored.model,
                        storedDimensions: stored.dimensions,
                        model: model, dimensions: asked ?? stored.dimensions
                    ).description)
        }
        let options = GeminiEmbeddingOptions(
            taskType: .retrievalDocument, outputDimensionality: asked ?? stored?.dimensions)
        let dryRun = EmbedCommands.dryRun(parsed, context)
        var (embedded, skipped, requests) = (0, 0, 0)
        var (retries, costs) = (0, [Double?]())
        var dimensions = stored?.dimensions ?? asked ?? 0
        let rows = try reader()
        var chunk: [(row: EmbeddingInputReader.Row, hash: String)] = []
        // Vertex AI embeds one text a request (no batchEmbedContents: docs/vertex.md).
        let perRequest =
            VertexSetup.usesVertex(context.session.withDeploymentState { $0 }, services: services)
            ? 1 : GeminiAPIClient.embeddingBatchLimit
        func flush() async throws {
            defer { chunk.removeAll(keepingCapacity: true) }
            guard !chunk.isEmpty else { return }
            let (vectors, envelope) = try await EmbeddingCall.embed(
                chunk.map(\.row.text), model: model, options: options, command: "embed-multi", dryRun: dryRun,
                context: context, services: services)
            requests += (chunk.count + perRequest - 1) / perRequest
            let members = Dictionary(
                envelope.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            retries += members["retries"]?.doubleValue.map { Int($0) } ?? 0
            costs.append(members["cost"]?.doubleValue)
            let toStore = zip(chunk, vectors).map { item, vector in
                EmbeddingRow(
                    id: item.row.id, contentHash: item.hash, vector: vector, metadata: item.row.metadata)
            }
            try plugin.withStore(command: "embed-multi", io: context.io) {
                try $0.store(toStore, collection: collection, model: model)
            }
            dimensions = vectors.first?.count ?? dimensions
            embedded += chunk.count
        }
        do {
            while let row = try rows.next() {
                let hash = SHA256.hexDigest(Data(row.text.utf8))
                if hashes[row.id] == hash {
                    skipped += 1
                    continue
                }
                chunk.append((row, hash))
                if chunk.count == GeminiAPIClient.embeddingBatchLimit { try await flush() }
            }
            try await flush()
        } catch let dryRun as AskCommands.DryRun {
            return dryRun.result
        }
        // `usage`, `retries` and `cost` always, over all the requests (0 when none was sent; the
        // API counts no tokens for embeddings: docs/cost.md).
        let envelope = GeminiCall.envelope(
            model: model, usage: nil, retries: retries, cost: CostText.total(costs))
        let data = JSONValue.object(
            [
                JSONMember("collection", .string(collection)), JSONMember("model", .string(model)),
                JSONMember("dimensions", .integer(dimensions)), JSONMember("rows", .integer(total)),
                JSONMember("embedded", .integer(embedded)), JSONMember("skipped", .integer(skipped)),
                JSONMember("requests", .integer(requests)),
            ] + envelope.filter { $0.key != "model" })
        // `--json` (taken out by the shell: ``PluginCommand/takesJSONFlag``) prints `data` as
        // the result of the one-line envelope, as `sophon --json embed-multi` does.
        return .report(
            EmbeddingsMessages.embedded(
                collection: collection, embedded: embedded, skipped: skipped, requests: requests), data: data)
    }
}
