import Foundation
import SophonCore
import SophonGemini

/// One `batch` command at work: the client, the journal and the session's settings.
struct BatchSession {
    var client: GeminiAPIClient
    var journalURL: URL
    var context: CommandContext
    var services: GeminiServices

    /// Where `batch`'s temporary files go (the requests of a submit, a job's answers while they
    /// are read): `tmp/` in the state folder, created `0700`, not the system's temporary
    /// folder; they hold prompts and answers and are removed when the command ends
    /// (docs/files.md).
    /// - Throws: ``CommandFailure`` `fileError` when the folder cannot be made.
    func temporaryFolder() throws -> URL {
        let folder = services.paths.stateFolder.appendingPathComponent("tmp", isDirectory: true)
        do {
            try PrivateFiles.prepareFolder(folder.path)
        } catch {
            throw CommandFailure(kind: .fileError, message: "batch: \(error)")
        }
        return folder
    }

    /// What a create sends: the inline body, or the name of the uploaded JSON Lines file.
    enum CreateSource {
        case inline(Data)
        case file(String)
    }

    /// `batches/ID` for NAME: a resource name as is; a display name through the journal, then
    /// the server's list.
    /// - Throws: ``CommandFailure`` `batchNotFound` (`no job named 'NAME'`; `batch` prefixes the
    ///   subcommand).
    func resolve(_ name: String) async throws -> String {
        if name.hasPrefix("batches/") { return name }
        if let known = try BatchJournal.load(journalURL).job(named: name)?.name { return known }
        if let found = try await client.listAllBatches().last(where: { $0.displayName == name }) {
            return found.name
        }
        throw CommandFailure(kind: .batchNotFound, message: "no job named '\(name)'")
    }

    /// `batch submit INPUT [--name N] [--max-requests M]`.
    func submit(_ words: [String]) async throws -> CommandResult {
        let badCount = CommandFailure(
            kind: .usage, message: "batch submit: --max-requests takes a whole number above 0")
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(words, declared: BatchCommand.declared)
        } catch .missingValue(let option, _) where option.name == "--max-requests" {
            throw badCount
        } catch {
            throw error.failure(command: "batch submit")
        }
        if parsed.value("--name")?.isEmpty == true {
            throw CommandFailure(kind: .usage, message: "batch submit: --name needs a name")
        }
        let displayName = parsed.value("--name")
        var maxRequests = BatchCommand.defaultMaxRequests
        if let value = parsed.value("--max-requests") {
            guard let number = Int(value), number > 0 else { throw badCount }
            maxRequests = number
        }
        if let output = parsed.given.first(where: { $0.name == "--output" }) {
            throw OptionError.unknown(output.spelling, among: ["--name", "--max-requests", "--estimate"])
                .failure(command: "batch submit")
        }
        guard parsed.operands.count <= 1 else { throw context.usageFailure("batch", hint: "one INPUT file") }
        let input = parsed.operands.first
        guard let input else { throw context.usageFailure("batch", hint: "INPUT is missing") }
        let file = BulkInput(path: context.resolve(input), name: input, command: "batch")
        let checked = try file.check()
        if parsed.has("--estimate") {
            return try await CostEstimate.run(
                command: "batch submit", requests: file,
                build: try RunCommand.requestBuilder(context: context, models: []),
                tier: .batch, client: client, context: context, services: services)
        }
        let keys = checked.map(\.text)
        var numberKeys = Set<String>()
        for key in checked { if case .number = key.value { numberKeys.insert(key.text) } }
        let base = displayName ?? URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        let shards = stride(from: 0, to: keys.count, by: maxRequests).map {
            Array(keys[$0..<min(keys.count, $0 + maxRequests)])
        }
        let schema = context.session.withGeminiState { $0.schema }
        let model = context.session.geminiSettings.model
        let absolute = URL(fileURLWithPath: file.path).standardizedFileURL.path
        // What each key sends: a journaled job stands for this submit only with the same requests.
        let build = try RunCommand.requestBuilder(context: context)
        var fingerprints: [String: String] = [:]
        try file.forEachLine { fingerprints[$0.key] = try build($0).fingerprint }
        var names: [String] = []
        for (index, shardKeys) in shards.enumerated() {
            var name = shards.count == 1 ? base : "\(base)-\(index + 1)"
            let requests = SHA256.hexDigest(
                Data(shardKeys.map { "\($0)\n\(fingerprints[$0] ?? "")\n" }.joined().utf8))
            let earlier = try BatchJournal.load(journalURL).jobs.filter { $0.displayName == name }
            if let last = earlier.last,
                !earlier.contains(where: { $0.requests == requests && $0.input == absolute })
            {
                // The same name, other requests (or another input file): a new job under its own
                // name, so that NAME in `batch status NAME` never stands for two jobs.
                let renamed = "\(name)-\(requests.prefix(8))"
                context.io.printError(
                    BulkMessages.batchChanged(
                        input: input, earlier: last.name ?? last.displayName, renamed: renamed,
                        hashed: last.requests != nil, otherInput: last.input == absolute ? nil : last.input))
                name = renamed
            }
            var job = BatchJournal.Job(
                displayName: name, name: nil, input: absolute, model: model, keys: shardKeys,
                structured: schema != nil)
            job.schema = schema
            job.requests = requests
            let numbers = shardKeys.filter { numberKeys.contains($0) }
            job.numberKeys = numbers.isEmpty ? nil : numbers
            names.append(try await create(job, file: file))
        }
        return .text(names.joined(separator: "\n"))
    }

    /// Creates `job` unless the journal says it was created: journals it first, looks a lost
    /// answer up by display name. A 429 on create (nothing was created then) is waited out by
    /// the client, as its retry policy says.
    /// - Returns: `batches/ID`.
    func create(_ job: BatchJournal.Job, file: BulkInput) async throws -> String {
        var journal = try BatchJournal.load(journalURL)
        if let index = journal.jobs.firstIndex(where: {
            $0.displayName == job.displayName && $0.input == job.input && $0.requests == job.requests
        }) {
            if let name = journal.jobs[index].name { return name }
            if let found = try await client.listAllBatches().first(where: {
                $0.displayName == job.displayName
            }) {
                journal.jobs[index].name = found.name
                try journal.save(journalURL)
                return found.name
            }
        } else {
            journal.jobs.append(job)
            try journal.save(journalURL)
        }
        let wanted = Set(job.keys)
        let build = try RunCommand.requestBuilder(context: context)
        let input: GeminiBatchInput
        let body: GeminiBatchInput.Body
        do {
            input = try GeminiBatchInput(
                displayName: job.displayName, inlineLimit: BatchCommand.inlineLimit, folder: temporaryFolder()
            )
            try file.forEachLine { line in
                guard wanted.contains(line.key) else { return }
                let built = try build(line)
                try input.append(key: line.key, request: built.request.answering(schema: built.schema))
            }
            body = try input.finish()
        } catch let error as SophonFileError {
            throw CommandFailure(kind: .fileError, message: "batch submit: \(error)")
        }
        let source: CreateSource
        switch body {
        case .inline(let data):
            source = .inline(data)
        case .file(let url, _):
            // Past the inline limit: the JSON Lines file goes up through the Files API first.
            let uploaded = try await client.uploadFile(
                contentsOf: url, mimeType: "application/jsonl", displayName: job.displayName)
            guard let fileName = uploaded.name else {
                throw CommandFailure(
                    kind: .uploadFailed, message: "batch submit: the upload returned no file name")
            }
            // A small JSONL file is ACTIVE at once; one still PROCESSING cannot be used yet.
            if uploaded.state == "PROCESSING" { _ = try await client.waitUntilActive(fileName) }
            source = .file(fileName)
        }
        var lost = 0
        while true {
            do {
                let model = GeminiModel(selection: job.model)
                let batch =
                    switch source {
                    case .inline(let data):
                        try await client.createBatch(displayName: job.displayName, model: model, body: data)
                    case .file(let name):
                        try await client.createBatch(
                            displayName: job.displayName, model: model, fileName: name)
                    }
                try record(job.displayName, input: job.input, name: batch.name)
                return batch.name
            } catch GeminiError.transport(let failure, let detail) {
                // The answer was lost: the job may exist. Look before sending again.
                if let found = try await client.listAllBatches().first(where: {
                    $0.displayName == job.displayName
                }) {
                    try record(job.displayName, input: job.input, name: found.name)
                    return found.name
                }
                lost += 1
                if lost > 2 { throw GeminiError.transport(failure, detail: detail) }
            }
        }
    }

    private func record(_ displayName: String, input: String, name: String) throws {
        var journal = try BatchJournal.load(journalURL)
        if let index = journal.jobs.lastIndex(where: { $0.displayName == displayName && $0.input == input }) {
            journal.jobs[index].name = name
        }
        try journal.save(journalURL)
    }

    /// `batch list`: `NAME STATE DISPLAY` per job; `(no batch jobs)` when there is none.
    /// - Throws: ``CommandFailure`` `fileError` for a journal that is not one, before anything is
    ///   sent (as `cache list` and `agents`): the list comes from the server, but a broken
    ///   journal is said where it breaks rather than shown as an empty list.
    func list() async throws -> CommandResult {
        _ = try BatchJournal.load(journalURL)
        let batches = try await client.listAllBatches()
        let text =
            batches.isEmpty
            ? BulkMessages.noBatches
            : batches.map { "\($0.name) \($0.state.rawValue) \($0.displayName)" }.joined(separator: "\n")
        return .report(
            text, data: .object([JSONMember("batches", .array(batches.map(BatchStatusReport.data)))]))
    }

    /// `batch status NAME`.
    func status(_ name: String) async throws -> CommandResult {
        let batch = try await client.getBatch(try await resolve(name), folder: temporaryFolder()) { _ in }
        return .report(BatchStatusReport.line(batch), data: BatchStatusReport.data(batch))
    }

    /// `batch wait NAME`: waits through the client's one poller (1 s, doubling to 30 s; each look
    /// retried by the retry policy, as any call); each state change goes to stderr. Fails unless
    /// SUCCEEDED.
    func wait(_ name: String) async throws -> CommandResult {
        let resolved = try await resolve(name)
        let io = context.io
        let folder = try temporaryFolder()
        let batch = try await client.waitUntilDone(
            resolved, maxInterval: .seconds(30), streamingThrough: folder
        ) { batch in
            io.printError("batch wait: \(resolved) \(batch.state.rawValue)")
        }
        guard batch.state == .succeeded else {
            throw CommandFailure(kind: .batchFailed, message: BatchStatusReport.line(batch))
        }
        return .report(BatchStatusReport.line(batch), data: BatchStatusReport.data(batch))
    }

    /// `batch delete NAME`: deletes the job and forgets it in the journal.
    func delete(_ name: String) async throws -> CommandResult {
        let resolved = try await resolve(name)
        try await client.deleteBatch(resolved)
        var journal = try BatchJournal.load(journalURL)
        journal.jobs.removeAll { $0.name == resolved }
        try journal.save(journalURL)
        return .none
    }

    /// `batch resubmit NAME`: the keys with no result or a per-item error, as a new job named
    /// `DISPLAY-resubmit-N`, built again from the job's input file.
    func resubmit(_ name: String) async throws -> CommandResult {
        let resolved = try await resolve(name)
        guard let job = try BatchJournal.load(journalURL).job(named: resolved) else {
            throw CommandFailure(
                kind: .batchNotFound,
                message: "batch resubmit: \(resolved) is not in the journal (not submitted here)")
        }
        var answered = Set<String>()
        let batch = try await readItems(of: resolved) { item in
            // A blocked prompt has a result (asking again gets the same); an error item has none.
            if let key = item.key, item.error == nil, item.response != nil { answered.insert(key) }
        }
        guard batch.state.isTerminal else {
            throw CommandFailure(
                kind: .usage,
                message: "batch resubmit: \(resolved) is \(batch.state.rawValue); wait for it to end")
        }
        let missing = job.keys.filter { !answered.contains($0) }
        guard !missing.isEmpty else { return .text("batch resubmit: every key of \(resolved) has a result") }
        let journal = try BatchJournal.load(journalURL)
        var number = 1
        while journal.jobs.contains(where: { $0.displayName == "\(job.displayName)-resubmit-\(number)" }) {
            number += 1
        }
        var next = BatchJournal.Job(
            displayName: "\(job.displayName)-resubmit-\(number)", name: nil, input: job.input,
            model: job.model,
            keys: missing, structured: job.structured)
        next.schema = job.schema
        next.numberKeys = job.numberKeys.map { numbers in numbers.filter { Set(missing).contains($0) } }
        let file = BulkInput(path: job.input, name: job.input, command: "batch")
        return .text(try await create(next, file: file))
    }
}

/// A batch job as `batch status`, `batch wait` and `batch list` report it: a line a person reads
/// and the same facts as `--json` data.
enum BatchStatusReport {
    /// A job as `--json` data: `name`, `displayName`, `state`, the request counts as numbers
    /// (`requestCount`, `succeeded`, `failed`, `pending`) and `createTime` (RFC 3339, or null).
    static func data(_ batch: GeminiBatch) -> JSONValue {
        .object([
            JSONMember("name", .string(batch.name)),
            JSONMember("displayName", .string(batch.displayName)),
            JSONMember("state", .string(batch.state.rawValue)),
            JSONMember("requestCount", .number(JSONNumber(batch.requestCount))),
            JSONMember("succeeded", .number(JSONNumber(batch.successfulCount))),
            JSONMember("failed", .number(JSONNumber(batch.failedCount))),
            JSONMember("pending", .number(JSONNumber(batch.pendingCount))),
            JSONMember("createTime", batch.createTime.map(JSONValue.string) ?? .null),
        ])
    }

    /// `NAME (DISPLAY): STATE, N requests: S succeeded, F failed, P pending, age A`.
    static func line(_ batch: GeminiBatch) -> String {
        var line =
            "\(batch.name) (\(batch.displayName)): \(batch.state.rawValue), \(batch.requestCount) requests: "
            + "\(batch.successfulCount) succeeded, \(batch.failedCount) failed, \(batch.pendingCount) pending"
        if let created = batch.createTime.flatMap(Self.date) {
            let minutes = max(0, Int(Date().timeIntervalSince(created) / 60))
            line += ", age \(minutes / 60)h\(minutes % 60)m"
        }
        return line
    }

    private static func date(_ text: String) -> Date? {
        let trimmed = text.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)
        return ISO8601DateFormatter().date(from: trimmed)
    }
}
