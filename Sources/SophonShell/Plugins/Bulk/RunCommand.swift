import Foundation
import SophonCore
import SophonGemini

/// `run INPUT -o OUTPUT [--prompt FILE] [--jobs N] [--rpm R] [--tpm T] [--retry-failed]`: every
/// line of a JSON Lines input through ``GeminiAPIClient/bulkRun(_:options:label:)``, resumable
/// by key (docs/running-many-prompts.md); with `--prompt`, each line is the input of a prompt
/// file (docs/prompts.md).
enum RunCommand {
    /// The command line of `run`.
    struct Options {
        var input: String
        var output: String
        var jobs = 8
        var requestsPerMinute: Int?
        var tokensPerMinute: Int?
        var retryFailed = false
        /// `--prompt FILE`: each line's object is this prompt file's input.
        var prompt: String?
        /// `--estimate`: count the tokens and print the expected cost; nothing is generated.
        var estimate = false
        /// `--models A,B`: every line on each model, a line per key and model in OUTPUT.
        var models: [GeminiModel] = []
    }

    /// The options of `run`, declared once.
    static let declared: [CommandOption] = [
        CommandOption(
            name: "--output", aliases: ["-o"], value: "OUTPUT", help: "where the answers go (JSON Lines)",
            missing: "a file name"),
        CommandOption(
            name: "--jobs", value: "N", help: "requests in flight at once (8)", missing: "a number"),
        CommandOption(name: "--rpm", value: "R", help: "at most R requests a minute", missing: "a number"),
        CommandOption(name: "--tpm", value: "T", help: "at most T tokens a minute", missing: "a number"),
        CommandOption(name: "--retry-failed", help: "ask again the lines OUTPUT holds as failed"),
        CommandOption(
            name: "--prompt", value: "FILE", help: "each line's object is the input of this prompt file",
            missing: "a prompt file"),
        CommandOption(
            name: "--models", value: "A,B", help: "ask every line on each model: a line per key and model",
            missing: "model IDs separated by commas"),
        CommandOption(
            name: "--estimate",
            help: "count the tokens (countTokens) and print the expected cost; generate nothing"),
    ]

    /// Reads the words after `run`.
    /// - Throws: ``CommandFailure`` `usage` for an unknown option, a missing or bad value, or a
    ///   missing INPUT or OUTPUT.
    static func options(_ request: CommandRequest, context: CommandContext) throws -> Options {
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(request.arguments, declared: declared)
        } catch {
            throw error.failure(command: "run")
        }
        func count(_ option: String) throws -> Int? {
            guard let value = parsed.value(option) else { return nil }
            guard let number = Int(value), number > 0 else {
                throw CommandFailure(
                    kind: .usage, message: "run: \(option) takes a whole number above 0, not '\(value)'")
            }
            return number
        }
        if let given = parsed.given.last(where: { $0.name == "--output" }), given.value.isEmpty {
            throw CommandFailure(kind: .usage, message: "run: \(given.spelling) needs a file name")
        }
        let output = parsed.value("--output")
        let (jobs, rpm, tpm) = (try count("--jobs") ?? 8, try count("--rpm"), try count("--tpm"))
        let retryFailed = parsed.has("--retry-failed")
        if parsed.operands.count > 1 {
            throw context.usageFailure("run", hint: "one INPUT file; '\(parsed.operands[1])' is one too many")
        }
        let input = parsed.operands.first
        guard let input else { throw context.usageFailure("run", hint: "INPUT is missing") }
        let estimate = parsed.has("--estimate")
        guard let output = output ?? (estimate ? "" : nil) else {
            throw context.usageFailure("run", hint: "-o OUTPUT is missing")
        }
        return Options(
            input: input, output: output, jobs: jobs, requestsPerMinute: rpm, tokensPerMinute: tpm,
            retryFailed: retryFailed, prompt: parsed.value("--prompt"), estimate: estimate,
            models: try parsed.value("--models").map { try ModelList.parse($0, command: "run") } ?? [])
    }

    /// Runs the command: checks the whole input (nothing is sent when a line is bad), reuses
    /// the answers OUTPUT or `OUTPUT.partial` hold for the same request (``BulkRequest/fingerprint``),
    /// asks the rest (a changed line is sent again), then writes OUTPUT in
    /// input order. Fails (`runFailed`) when a line of OUTPUT is `ok: false`.
    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        let options = try options(request, context: context)
        var input = BulkInput(path: context.resolve(options.input), name: options.input)
        let outputPath = context.resolve(options.output)
        if !options.estimate {
            try input.refuseAsOutput(outputPath, shown: options.output)
            // OUTPUT a folder, or in a folder that does not exist: said as `--html` says it,
            // before the input is read.
            try OutputFolder.requireWritable(options.output, option: "-o", command: "run") {
                context.resolve($0)
            }
        }
        let template = try options.prompt.map { file in
            try CommandFailure.prefixed("run") {
                try PromptTemplate.load(context.resolve(file), shownAs: file)
            }
        }
        if template != nil { input.form = .inputs }
        var noted = false
        let keys = try input.check { line in
            // Each input rendered once before anything is sent: a line that fails the file's
            // input schema is a bad line; a file that does not render fails the run at once.
            guard let template, case .input(let value) = line.body else { return }
            let turn = try CommandFailure.prefixed("run", unless: .invalidInput) {
                try template.turn(.object([JSONMember("input", value)]))
            }
            if !noted {
                for note in turn.notes {
                    context.io.printError(ShellMessages.note("\(template.file): output \(note)"))
                }
                noted = true
            }
        }
        let client = try GeminiCall.client(command: "run", context: context, services: services)
        let builder = try requestBuilder(context: context, template: template, models: options.models)
        // With --models, each key is asked once per model, journaled under KEY + U+001F + MODEL.
        let runKeys = keys.flatMap { key in
            options.models.isEmpty ? [key.text] : options.models.map { runKey(key.text, model: $0) }
        }
        if options.estimate {
            return try await CostEstimate.run(
                command: "run", requests: input, build: builder,
                tier: ServedTier.pricing(nil, context: context), client: client,
                context: context,
                services: services)
        }
        if let (spent, budget) = RunSpending.budgetReached(context) {
            throw CommandFailure(
                kind: .budgetReached,
                message: BulkMessages.budgetReached(
                    spent: spent, budget: budget, left: runKeys.count, journal: options.output + ".partial"))
        }
        let journal = try CommandFailure.prefixed("run") {
            try RunJournal(
                output: outputPath, retryFailed: options.retryFailed, byModel: !options.models.isEmpty)
        }
        // What each key sends now; an earlier answer stands only for the same request.
        var fingerprints: [String: String] = [:]
        var skip: Set<String> = []
        var changed = 0
        var unknown = 0
        try input.forEachLine { line in
            for request in try builder(line) {
                let fingerprint = request.fingerprint
                fingerprints[request.key] = fingerprint
                switch journal.reuse(key: request.key, hash: fingerprint) {
                case .same: skip.insert(request.key)
                case .changed: changed += 1
                case .unknown: unknown += 1
                case .none: break
                }
            }
        }
        let sentHashes = fingerprints
        let keyValues = Dictionary(keys.map { ($0.text, $0.value) }, uniquingKeysWith: { first, _ in first })
        let log = RunLog(context: context)
        let build = log.noting(builder)
        var policy = context.session.withGeminiState { $0.retryPolicy }
        // Each model of --models answers as itself or fails, as in `compare`.
        if !options.models.isEmpty { policy.fallbackOn404 = false }
        let language = context.session.settings.language
        var bulkOptions = BulkRunOptions(
            jobs: options.jobs, requestsPerMinute: options.requestsPerMinute,
            tokensPerMinute: options.tokensPerMinute, retryPolicy: policy)
        bulkOptions.recentSends = journal.recentSends
        let progress = RunProgress(total: runKeys.count, alreadyDone: skip.count, io: context.io)
        var spending = RunSpending(prices: services.prices)
        var finished = skip.count
        let gate = RunBudgetGate(context: context, prices: services.prices)
        let results = client.bulkRun(
            BulkRequestSequence(input: input, skip: skip, build: build, stop: { gate.isSpent }),
            options: bulkOptions, onSend: { journal.recordSend($0) }, onResult: { gate.add($0) })
        let interruptedNote = BulkMessages.interrupted(journal: options.output + ".partial")
        // A script's Ctrl-C ends the process at once: the note goes out from the signal handler.
        InterruptSignal.setExitNote((Terminal.isTerminal(STDERR_FILENO) ? "\n" : "") + interruptedNote + "\n")
        defer { InterruptSignal.setExitNote(nil) }
        do {
            for try await result in results {
                let (inputKey, asked) = split(result.key, models: options.models)
                let keyValue = keyValues[inputKey] ?? .string(inputKey)
                let line: String
                var cost: Double?
                switch result.outcome {
                case .success(let value, let model, let usage):
                    line = BulkOutputLine.success(
                        key: keyValue, result: services.redact(value), model: asked ?? model, usage: usage)
                    cost = spending.add(model: model, usage: usage, context: context)
                case .failure(let error):
                    line = BulkOutputLine.failure(
                        key: keyValue, kind: GeminiCall.kind(of: error).rawValue,
                        message: error.description(language: language), model: asked)
                }
                // A full disk or a lost folder: said as `run`'s, as its other errors are.
                try CommandFailure.prefixed("run") {
                    try journal.append(
                        key: result.key, ok: result.isSuccess, text: line, hash: sentHashes[result.key] ?? "")
                }
                progress.finished(ok: result.isSuccess)
                log.record(result, redact: services.redact, cost: cost)
                finished += 1
            }
            try Task.checkCancellation()
            if finished < runKeys.count, gate.isSpent || RunSpending.budgetReached(context) != nil {
                // The gate ended the requests; the calls already in flight were paid for, so
                // their answers were kept and counted above: the lines left were never sent.
                progress.end()
                let (spent, budget) = context.session.withGeminiState { ($0.spending.spent, $0.budget ?? 0) }
                throw CommandFailure(
                    kind: .budgetReached,
                    message: BulkMessages.budgetReached(
                        spent: spent, budget: budget, left: runKeys.count - finished,
                        journal: options.output + ".partial"))
            }
        } catch  where Task.isCancelled {
            // Interrupted: say where the finished answers are and how to go on.
            progress.end()
            context.io.printError(interruptedNote)
            throw error
        }
        progress.end()
        var data = Data()
        var failed = 0
        for key in runKeys {
            guard let line = journal.line(for: key) else {
                throw CommandFailure(
                    kind: .internalError,
                    message: "run: no result for key '\(key)'; \(journal.path) is kept")
            }
            if BulkOutputLine.read(line)?.ok == false { failed += 1 }
            data.append(contentsOf: line.utf8)
            data.append(0x0A)
        }
        try CommandFailure.prefixed("run") {
            do {
                try AtomicFile.write(data, to: URL(fileURLWithPath: outputPath))
            } catch {
                throw CommandFailure(kind: .fileError, message: "\(error)")
            }
            try journal.writeHashes(keys: runKeys)
        }
        journal.remove()
        let summary = BulkMessages.summary(
            done: runKeys.count, total: runKeys.count, failed: failed,
            reuse: BulkMessages.Reuse(same: skip.count, changed: changed, unknown: unknown),
            cost: CostText.text(spending.ledger.total), output: options.output)
        if !Terminal.isTerminal(STDERR_FILENO) { context.io.printError(summary) }
        // `--json`: the summary's facts as named members (docs/language.md), kept beside the
        // error of a run with failed keys as `compare` keeps its result.
        let result = JSONValue.object(
            [
                JSONMember("output", .string(options.output)),
                JSONMember("keys", .integer(runKeys.count)),
                JSONMember("failed", .integer(failed)),
                JSONMember("reused", .integer(skip.count)),
                JSONMember("sentAgain", .integer(changed + unknown)),
            ] + spending.data)
        if failed > 0 {
            throw CommandFailure(
                kind: .runFailed,
                message:
                    "run: \(failed) of \(runKeys.count) key\(runKeys.count == 1 ? "" : "s") failed (ok: false in \(options.output)); "
                    + BulkMessages.retryFailedHint,
                envelope: [JSONMember("result", result)]
            )
        }
        // Nothing on stdout otherwise (the summary is on stderr): a report only `--json` prints.
        return context.session.settings.output == .json ? .report("", data: result) : .none
    }

    /// Builds each line's request: a `prompt` line is built as `ask` builds its request (one
    /// path, ``GeminiCall/request(contents:tools:toolConfig:model:schema:overrides:context:)``:
    /// the session's model, schema, system instruction, safety and generation settings fitted to
    /// the model, and tools as `ask` sends them); a `request` line is sent as given on the
    /// session's model; an `input` line renders `template` with it and is built as `prompt FILE`
    /// builds its request (the file's model, config, system message and output schema over the
    /// session's).
    /// - Throws: ``CommandFailure`` (`invalidSetting`) when the model cannot take a setting,
    ///   before any line is read. The builder throws what rendering a line throws.
    static func requestBuilder(
        context: CommandContext, template: PromptTemplate? = nil, models: [GeminiModel]
    )
        throws -> @Sendable (BulkInputLine) throws -> [BulkRequest]
    {
        guard !models.isEmpty else {
            let build = try requestBuilder(context: context, template: template)
            return { [try build($0)] }
        }
        let builders = try models.map { try requestBuilder(context: context, template: template, model: $0) }
        return { line in
            try zip(models, builders).map { model, build in
                var request = try build(line)
                request.key = runKey(line.key, model: model)
                return request
            }
        }
    }

    /// The key a `run --models` result is journaled under: the input's key, U+001F, the model.
    static func runKey(_ key: String, model: GeminiModel) -> String { key + "\u{1F}" + model.id }

    /// The input's key and the model asked of a journaled key (``runKey(_:model:)`` undone);
    /// the key itself and `nil` without `--models`.
    static func split(_ key: String, models: [GeminiModel]) -> (key: String, model: String?) {
        guard !models.isEmpty, let separator = key.lastIndex(of: "\u{1F}") else { return (key, nil) }
        return (String(key[..<separator]), String(key[key.index(after: separator)...]))
    }

    /// One line's request on `model` (the prompt file's or the session's model when `nil`).
    static func requestBuilder(
        context: CommandContext, template: PromptTemplate? = nil, model: GeminiModel? = nil
    ) throws -> @Sendable (BulkInputLine) throws -> BulkRequest {
        let settings = context.session.geminiSettings
        let sessionSchema = context.session.withGeminiState { $0.schema }
        let model = model ?? GeminiModel(selection: template?.model ?? settings.model)
        let hasTools =
            context.session.withToolState { $0.hasTools } || !context.runtime.pluginTools().isEmpty
        let structured = sessionSchema != nil || template?.hasOutputSchema == true
        // As `ask`: a text prompt with tools goes as a tool exchange's first round (served
        // plugin functions included); a structured one carries the declared tools.
        let functions = try CommandFailure.prefixed("run") { try template?.functions() ?? [] }
        let (tools, toolConfig) = GeminiCall.sessionTools(
            servedToo: (hasTools || !functions.isEmpty) && !structured, functions: functions, context: context
        )
        let base = try GeminiCall.request(
            contents: [], tools: tools, toolConfig: toolConfig, model: model,
            overrides: TurnOverrides(generation: template?.generation ?? GenerationConfig()), context: context
        )
        return { line in
            switch line.body {
            case .prompt(let prompt):
                var request = base
                request.contents = [Content(role: "user", parts: [.text(prompt)])]
                return BulkRequest(key: line.key, request: request, schema: sessionSchema, model: model)
            case .request(let request):
                return BulkRequest(key: line.key, request: request, schema: nil, model: model)
            case .input(let input):
                guard let template else {
                    throw CommandFailure(kind: .internalError, message: "run: an input line without --prompt")
                }
                let turn = try CommandFailure.prefixed("run") {
                    try template.turn(.object([JSONMember("input", input)]))
                }
                var request = base
                request.contents = turn.contents
                if let system = turn.system { request.systemInstruction = system }
                return BulkRequest(
                    key: line.key, request: request, schema: turn.schema ?? sessionSchema, model: model)
            }
        }
    }
}
