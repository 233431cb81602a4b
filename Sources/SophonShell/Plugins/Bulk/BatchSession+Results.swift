import Foundation
import SophonCore
import SophonGemini

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `batch results`: a finished job's answers, read one at a time, in `run`'s output format.
extension BatchSession {
    /// `batch results NAME -o OUTPUT`: the output format of `run`, in input order, matched by
    /// key; blocked prompts and per-item errors are `ok: false`, and so are keys with no result.
    func results(_ words: [String]) async throws -> CommandResult {
        let parsed = try? CommandOption.parse(words, declared: BatchCommand.declared)
        let onlyOutput = parsed?.given.allSatisfy { $0.name == "--output" } == true
        let name = parsed?.operands.count == 1 && onlyOutput ? parsed?.operands.first : nil
        let output = parsed?.value("--output")
        guard let name, let output, !output.isEmpty else {
            throw context.usageFailure("batch", hint: "batch results NAME -o OUTPUT")
        }
        // OUTPUT checked as `run -o` checks it, before the job is fetched: a folder there (or
        // a missing folder) fails now, not after the answers are downloaded.
        try OutputFolder.requireWritable(output, option: "-o", command: "batch results") {
            context.resolve($0)
        }
        let resolved = try await resolve(name)
        let job = try BatchJournal.load(journalURL).job(named: resolved)
        if let job {
            // The job's input stays needed (`batch resubmit` reads it again).
            try BulkInput(path: job.input, name: job.input, command: "batch results")
                .refuseAsOutput(context.resolve(output), shown: output)
        }
        // Read as `run` reads the same answer: one reader.
        let reader = GeminiAnswerReader(schema: job?.schema, wantsJSON: job?.structured ?? false)
        let language = context.session.settings.language
        let spill = try BatchResultSpill(folder: temporaryFolder())
        var position = 0
        var fallbackModel = job?.model ?? ""
        // What the answers cost at the Batch price (docs/cost.md).
        var spending = CostLedger()
        // A key the input wrote as a number is written back as one, as `run` does.
        let numberKeys = Set(job?.numberKeys ?? [])
        func keyValue(_ key: String) -> JSONValue {
            numberKeys.contains(key) ? ((try? JSONValue(parsing: key)) ?? .string(key)) : .string(key)
        }
        func record(_ item: GeminiBatchItem) throws {
            position += 1
            let key = item.key ?? job?.keys[safe: position - 1] ?? "line-\(position)"
            switch reader.read(item) {
            case .success(let answer):
                let model = answer.response.modelVersion ?? fallbackModel
                let usage = answer.response.usageMetadata
                spending.add(
                    services.prices.cost(model: model, usage: usage, tier: .batch), model: model, usage: usage
                )
                try spill.add(
                    key: key,
                    line: BulkOutputLine.success(
                        key: keyValue(key), result: services.redact(answer.value),
                        model: answer.response.modelVersion ?? fallbackModel,
                        usage: answer.response.usageMetadata))
            case .failure(let error):
                try spill.add(
                    key: key,
                    line: BulkOutputLine.failure(
                        key: keyValue(key), kind: GeminiCall.kind(of: error).rawValue,
                        message: error.description(language: language)))
            }
        }
        let batch = try await readItems(of: resolved, record) { fallbackModel = $0 }
        guard batch.inlinedResponses != nil || batch.responsesFile != nil else {
            throw CommandFailure(
                kind: .batchFailed,
                message: "batch results: \(resolved) is \(batch.state.rawValue) and has no results")
        }
        var data = Data()
        var failed = 0
        let order = job?.keys ?? spill.arrival
        for key in order {
            let line =
                try spill.line(for: key)
                ?? BulkOutputLine.failure(
                    key: keyValue(key), kind: "noResult", message: "the job returned no result for this key")
            if BulkOutputLine.read(line)?.ok == false { failed += 1 }
            data.append(contentsOf: line.utf8)
            data.append(0x0A)
        }
        do {
            try AtomicFile.write(data, to: URL(fileURLWithPath: context.resolve(output)))
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(error)")
        }
        let total = order.count
        context.io.printError(
            "batch results: \(total) keys, \(failed) failed; cost \(CostText.text(spending.total)) (Batch price); "
                + "wrote \(output)")
        // `--json`: the summary's facts as named members, as `run` gives them (beside the error
        // when keys failed).
        let result = JSONValue.object([
            JSONMember("output", .string(output)), JSONMember("keys", .integer(total)),
            JSONMember("failed", .integer(failed)), JSONMember("cost", CostText.value(spending.total)),
        ])
        if failed > 0 {
            throw CommandFailure(
                kind: .runFailed,
                message: "batch results: \(failed) of \(total) keys failed (ok: false in \(output))",
                envelope: [JSONMember("result", result)])
        }
        // Nothing on stdout otherwise (the summary is on stderr).
        return context.session.settings.output == .json ? .report("", data: result) : .none
    }

    /// Reads the answers of the job `name` one at a time: the inline answers of the Operation,
    /// or, for a job with file input, its results file downloaded to a temporary file and read
    /// line by line. `model` gets the job's model ID before the results file is read.
    /// - Returns: the job (its inline answers already handed to `item`).
    func readItems(
        of name: String, _ item: (GeminiBatchItem) throws -> Void, model: (String) -> Void = { _ in }
    ) async throws -> GeminiBatch {
        let folder = try temporaryFolder()
        let batch = try await client.getBatch(name, folder: folder, forEachItem: item)
        guard batch.inlinedResponses == nil, let results = batch.responsesFile else { return batch }
        model(batch.model.hasPrefix("models/") ? String(batch.model.dropFirst(7)) : batch.model)
        let file = folder.appendingPathComponent("sophon-results-\(UUID().uuidString.lowercased()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try await client.downloadFile(results, to: file)
        try GeminiAPIClient.forEachBatchItem(inResultsFile: file, item)
        return batch
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// The output lines of `batch results` as they arrive (in the server's order), kept in a
/// temporary file with only each key's offset in memory, so they can be written out in input
/// order whatever the size of the job (docs/running-many-prompts.md, "Memory"). The file is
/// removed when the value is released.
final class BatchResultSpill {
    /// The keys in the order their first line arrived.
    private(set) var arrival: [String] = []

    private let path: String
    private let descriptor: Int32
    private var size = 0
    private var places: [String: (offset: Int, length: Int)] = [:]

    /// Creates the temporary file in `folder` (``BatchSession/temporaryFolder()``), `0600`.
    /// - Throws: ``CommandFailure`` `fileError` when it cannot be created.
    init(folder: URL) throws {
        path = folder.appendingPathComponent("sophon-results-\(UUID().uuidString.lowercased()).jsonl").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Keeps `line` as the line of `key` (a later line for the same key replaces it).
    /// - Throws: ``CommandFailure`` `fileError` when the file cannot be written.
    func add(key: String, line: String) throws {
        let length = line.utf8.count
        do {
            try FileDescriptorWriter.writeAll(descriptor, line, at: size)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(path): \(error)")
        }
        if places[key] == nil { arrival.append(key) }
        places[key] = (size, length)
        size += length
    }

    /// The line of `key`, or `nil` when none arrived.
    /// - Throws: ``CommandFailure`` `fileError` when the file cannot be read.
    func line(for key: String) throws -> String? {
        guard let place = places[key] else { return nil }
        var bytes = [UInt8](repeating: 0, count: place.length)
        let done: Int
        do {
            done = try bytes.withUnsafeMutableBytes {
                try FileDescriptorReader.readFully(descriptor, into: $0, at: place.offset)
            }
        } catch { throw CommandFailure(kind: .fileError, message: "\(path): \(error)") }
        guard done == place.length else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(EIO)))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
