import Foundation
import SophonCore
import SophonGemini

/// `compare [--dry-run] --models A,B[,...] PROMPT` and `compare --prompts A.prompt,B.prompt
/// [--models A,B] [--data JSON|@FILE]` (docs/commands.md "compare"): the same turn
/// on each model at once, or each prompt file's turn; one block per candidate in the order
/// given. `$last` is the array of ``CompareReport/last``. One candidate's failure stays in its
/// block; the command fails (`compareFailed`, exit 1) when any did.
enum CompareCommand {
    /// The options of `compare`.
    static let declared = [
        CommandOption(
            name: "--models", value: "A,B", help: "the models to ask, in order (catalog IDs or custom:ID)",
            missing: "model IDs separated by commas"),
        CommandOption(
            name: "--prompts", value: "A,B", help: "prompt files to ask instead of PROMPT, in order",
            missing: "prompt files separated by commas"),
        CommandOption(
            name: "--data", value: "JSON",
            help: "the prompt files' data: {input, context, messages} (inline or @FILE)",
            missing: "JSON or @FILE"),
        CommandOption(name: "--dry-run", help: "print each request instead of sending it"),
        CommandOption(
            name: "--html", value: "FILE", help: "also write a self-contained HTML report to FILE",
            missing: "a file name"),
    ]

    /// The raw-argument layout: PROMPT is the rest of the line after the options.
    static let argument = RawArgumentSpec(valueOptions: ["--models", "--prompts", "--data", "--html"])

    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws -> CommandResult
    {
        var words = request.arguments
        if words.first == request.name { words.removeFirst() }
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(words, as: .leading, declared: declared)
        } catch {
            throw error.failure(command: "compare")
        }
        let models = try parsed.value("--models").map { try ModelList.parse($0, command: "compare") } ?? []
        let prompt = request.rawArgument ?? parsed.operands.joined(separator: " ")
        let candidates: [CompareCandidate]
        if let files = parsed.value("--prompts") {
            guard prompt.isEmpty else {
                throw CommandFailure(kind: .usage, message: "compare: give PROMPT or --prompts, not both")
            }
            candidates = try promptCandidates(
                files, models: models, data: parsed.value("--data"), context: context)
        } else {
            guard !models.isEmpty, !prompt.isEmpty else { throw context.usageFailure("compare") }
            if parsed.has("--data") {
                throw CommandFailure(kind: .usage, message: "compare: --data goes with --prompts")
            }
            let (schema, attachments) = context.session.withGeminiState { ($0.schema, $0.attachments) }
            let turn = Content(role: "user", parts: attachments + [.text(prompt)])
            candidates = models.map { CompareCandidate(model: $0, contents: [turn], schema: schema) }
        }
        // A report that cannot be written is refused before anything is sent (and paid for).
        let html = try parsed.value("--html").map {
            try OutputFolder.requireWritable(
                $0, option: "--html", command: "compare", resolve: context.resolve)
        }
        // A dry run sends nothing, so the attachments stay for the next turn.
        if context.session.geminiSettings.dryRun || parsed.has("--dry-run") {
            return try await dryRun(candidates, context: context, services: services).result
        }
        context.session.withGeminiState {
            $0.attachments = []
            $0.attachmentNames = []
        }
        let client = try GeminiCall.client(command: "compare", context: context, services: services)
        let tools = await CompareTurn.tools(for: candidates, context: context, services: services)
        let outcomes = await withTaskGroup(of: (Int, CompareOutcome).self) { group in
            for (index, candidate) in candidates.enumerated() {
                group.addTask {
                    (
                        index,
                        await CompareTurn.run(
                            candidate, tools: tools, client: client, context: context, services: services)
                    )
                }
            }
            var outcomes: [CompareOutcome?] = Array(repeating: nil, count: candidates.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
        let report = CompareReport(outcomes: outcomes, redact: { services.redact($0) })
        if let html {
            try report.page(
                title: "sophon compare: " + (prompt.isEmpty ? parsed.value("--prompts") ?? "" : prompt)
            )
            .write(to: html, command: "compare")
        }
        let failed = report.failed
        guard !failed.isEmpty else {
            return .reply(CallReply(value: report.last, display: report.text, envelope: report.members))
        }
        // The blocks and `$last` stand; the command fails.
        context.session.withState { $0.last = report.last }
        if context.session.settings.output != .json { context.io.printLine(report.text) }
        throw CommandFailure(
            kind: .compareFailed,
            message: "compare: \(failed.count) of \(outcomes.count) failed: "
                + failed.map(\.candidate.label).joined(separator: ", "),
            envelope: [JSONMember("result", report.last)] + report.members)
    }

    /// One candidate per prompt file (per file and model when `models` is not empty), each
    /// file rendered with `data` through `prompt FILE`'s renderer.
    static func promptCandidates(
        _ list: String, models: [GeminiModel], data: String?, context: CommandContext
    ) throws -> [CompareCandidate] {
        let files = try CommaList.items(list, command: "compare", option: "--prompts", noun: "prompt files")
        let given = try PromptRenderCommand.data(data, command: "compare", context: context)
        var candidates: [CompareCandidate] = []
        for file in files {
            let template = try CommandFailure.prefixed("compare") {
                try PromptTemplate.load(context.resolve(file), shownAs: file)
            }
            let turn = try CommandFailure.prefixed("compare") { try template.turn(given) }
            for note in turn.notes {
                context.io.printError(ShellMessages.note("\(template.file): output \(note)"))
            }
            let overrides = TurnOverrides(
                system: turn.system, generation: template.generation,
                functions: try CommandFailure.prefixed("compare") { try template.functions() })
            let fileModels =
                models.isEmpty
                ? [GeminiModel(selection: template.model ?? context.session.geminiSettings.model)] : models
            for model in fileModels {
                candidates.append(
                    CompareCandidate(
                        model: model, promptFile: file, contents: turn.contents,
                        schema: turn.schema ?? context.session.withGeminiState { $0.schema },
                        overrides: overrides))
            }
        }
        return candidates
    }

    /// `--dry-run`: each candidate's request, as it would go, in order; nothing sent.
    private static func dryRun(
        _ candidates: [CompareCandidate], context: CommandContext, services: GeminiServices
    ) async throws -> AskCommands.DryRun {
        var sent: [GeminiHTTPRequest] = []
        let tools = await CompareTurn.tools(for: candidates, context: context, services: services)
        for candidate in candidates {
            let transport = DryRunTransport()
            let client = services.makeDryRunClient(session: context.session, transport: transport)
            let request = try CompareTurn.request(
                candidate, servedToo: tools != nil, context: context, services: services)
            _ = try? await client.generateText(label: "compare", request: request, model: candidate.model)
            if let request = transport.request { sent.append(request) }
        }
        return AskCommands.DryRun(requests: sent, listed: true)
    }
}
