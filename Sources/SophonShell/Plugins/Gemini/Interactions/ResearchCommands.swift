import Foundation
import SophonCore
import SophonGemini

/// `research QUESTION`, `agents` and `agent status|wait|cancel|show ID` (docs/interactions.md):
/// Deep Research jobs run in the background on the server, followed by polling, journaled in
/// `agents.json`.
enum ResearchCommands {
    /// A command runner that needs the Gemini services.
    typealias Runner =
        @Sendable (CommandRequest, CommandContext, GeminiServices) async throws -> CommandResult
    /// Wraps a runner into a plugin command's `run`.
    typealias NeedingServices =
        (@escaping Runner) -> @Sendable (CommandRequest, CommandContext) async throws -> CommandResult

    /// `research`'s options.
    static let declared = [
        CommandOption(
            name: "--agent", value: "NAME", help: "the agent (default \(ResearchAgents.standard))",
            missing: "an agent name"),
        CommandOption(name: "--dry-run", help: "print the request instead of sending it"),
    ]

    /// The three commands.
    static func commands(_ needingServices: NeedingServices) -> [PluginCommand] {
        [
            PluginCommand(
                name: "research", usage: "research [--agent NAME] [--dry-run] [--json] QUESTION",
                summary:
                    "a Deep Research job in the background: steps as they arrive, the report with sources",
                options: declared + [CommandOption.json],
                argumentStyle: .raw(RawArgumentSpec(valueOptions: ["--agent"])), takesJSONFlag: true,
                run: needingServices { try await research($0, context: $1, services: $2) }),
            PluginCommand(
                name: "agents", usage: "agents [--json]", summary: "the research jobs of the local journal",
                options: [CommandOption.json], takesJSONFlag: true,
                run: needingServices { request, context, services in
                    // A word `agents` does not take is refused, not ignored.
                    guard request.arguments.drop(while: { $0 == request.name }).isEmpty else {
                        throw context.usageFailure("agents")
                    }
                    return try agents(context: context, services: services)
                }),
            PluginCommand(
                name: "agent", usage: "agent status|wait|cancel|show ID [--json]",
                summary: "a research job: its status, wait for its report, cancel it, or show it",
                options: [CommandOption.json], takesJSONFlag: true,
                run: needingServices { try await agent($0, context: $1, services: $2) }),
        ]
    }

    /// `research [--agent NAME] [--dry-run] QUESTION`: journals the job, creates it in the
    /// background, follows it to its report; the exchange is logged (``ExchangeLog``) and its
    /// usage counted in `show usage`. Ctrl-C detaches (the job goes on). `--dry-run` (or `set
    /// dry-run on`) prints the create request instead, and journals nothing.
    static func research(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws -> CommandResult
    {
        let parsed = try CommandOption.parse(request, command: "research", declared: declared)
        let agent = parsed.value("--agent") ?? ResearchAgents.standard
        guard ResearchAgents.known.contains(agent) else {
            throw CommandFailure(kind: .unknownAgent, message: InteractionMessages.unknownAgent(agent))
        }
        guard let question = request.rawArgument?.trimmingCharacters(in: .whitespaces), !question.isEmpty
        else {
            throw context.usageFailure("research")
        }
        if let refusal = VertexSetup.refusal("research", session: context.session, services: services) {
            throw refusal
        }
        let configuration = JSONValue.object([
            JSONMember("type", .string(ResearchAgents.config)),
            JSONMember("thinking_summaries", .string("auto")),
        ])
        let job = GeminiInteractionRequest(
            agent: agent, input: .text(question), background: true, agentConfig: configuration)
        if context.session.geminiSettings.dryRun || parsed.has("--dry-run") {
            return try await dryRun(job, context: context, services: services)
        }
        let client = try GeminiCall.client(command: "research", context: context, services: services)
        let (reply, _) = try await ExchangeLog.recording(
            "research", options: AskCommands.Options(model: agent, noSchema: true, prompt: question),
            history: [], sessionTurn: false, context: context
        ) {
            let reply = try await start(
                job, agent: agent, question: question, client: client, context: context, services: services)
            return (reply, [])
        }
        return .reply(reply)
    }

    /// What `research --dry-run` prints: the create request, built as for the job, not sent.
    private static func dryRun(
        _ job: GeminiInteractionRequest, context: CommandContext, services: GeminiServices
    ) async throws -> CommandResult {
        let transport = DryRunTransport()
        let client = services.makeDryRunClient(session: context.session, transport: transport)
        do {
            _ = try await client.interactions.create(
                job, label: "research", retryPolicy: context.session.withGeminiState { $0.retryPolicy })
        } catch let error as DryRunTransport.Stopped {
            guard let sent = transport.request else { throw error }
            return AskCommands.DryRun(sent).result
        } catch let error as GeminiError {
            throw GeminiCall.failure(error, context: context)
        }
        throw CommandFailure(kind: .internalError, message: "research: the dry run sent nothing")
    }

    /// Journals the job `job`, creates it and follows it to its report.
    private static func start(
        _ job: GeminiInteractionRequest, agent: String, question: String, client: GeminiAPIClient,
        context: CommandContext, services: GeminiServices
    ) async throws -> CallReply {
        let journal = AgentJournal.url(services)
        let created = AgentJournal.now()
        try AgentJournal.update(journal) {
            $0.jobs.append(
                .init(id: nil, agent: agent, question: question, status: "creating", created: created))
        }
        // Ctrl-C ends a script or one-command run at once: the job is journaled already.
        InterruptSignal.setExitNote(InteractionMessages.interruptedWhileCreating + "\n")
        defer { InterruptSignal.setExitNote(nil) }
        let started: GeminiInteraction
        do {
            started = try await client.interactions.create(
                job, label: "research", retryPolicy: context.session.withGeminiState { $0.retryPolicy }
            ).interaction
        } catch let error as GeminiError {
            try? AgentJournal.update(journal) { journal in
                journal.jobs.removeAll { $0.id == nil && $0.created == created && $0.question == question }
            }
            throw GeminiCall.failure(error, context: context)
        }
        try AgentJournal.update(journal) { journal in
            for index in journal.jobs.indices
            where journal.jobs[index].id == nil && journal.jobs[index].created == created
                && journal.jobs[index].question == question
            {
                journal.jobs[index].id = started.id
                journal.jobs[index].status = started.status.rawValue
            }
        }
        context.session.withInteractionState { $0.lastInteractionID = started.id }
        // From here a Ctrl-C detaches a job that exists (its id is known): say so, not that it
        // was interrupted while being created.
        InterruptSignal.setExitNote(InteractionMessages.detached(started.id) + "\n")
        context.io.printError("research job \(started.id) started (\(agent))")
        return try await follow(
            started.id, agent: agent, client: client, context: context, services: services)
    }

    /// `agents`: the journal's jobs, one line each: `ID  STATUS  AGENT  CREATED  QUESTION`.
    static func agents(context: CommandContext, services: GeminiServices) throws -> CommandResult {
        let jobs = try AgentJournal.load(AgentJournal.url(services)).jobs
        let data = JSONValue.object([JSONMember("jobs", .array(jobs.map(jobValue)))])
        guard !jobs.isEmpty else {
            return .report("(no research jobs yet; start one with 'research QUESTION')", data: data)
        }
        let lines = jobs.map { job in
            let question = job.question.count > 60 ? String(job.question.prefix(57)) + "..." : job.question
            return [
                job.id ?? "(no id: interrupted while created)", job.status, job.agent, job.created, question,
            ]
            .joined(separator: "  ")
        }
        return .report(lines.joined(separator: "\n"), data: data)
    }

    /// `agent status|wait|cancel|show ID`.
    static func agent(_ request: CommandRequest, context: CommandContext, services: GeminiServices)
        async throws -> CommandResult
    {
        var words = request.arguments
        if words.first == request.name { words.removeFirst() }
        guard words.count == 2, ["status", "wait", "cancel", "show"].contains(words[0]) else {
            throw context.usageFailure("agent")
        }
        let (action, id) = (words[0], words[1])
        if let refusal = VertexSetup.refusal("agent", session: context.session, services: services) {
            throw refusal
        }
        let client = try GeminiCall.client(command: "agent", context: context, services: services)
        let journal = AgentJournal.url(services)
        let job = try AgentJournal.load(journal).job(id)
        let agent = job?.agent
        let policy = context.session.withGeminiState { $0.retryPolicy }
        do {
            switch action {
            case "wait":
                guard job?.counted != true else {
                    return .reply(
                        try await follow(
                            id, agent: agent, client: client, context: context, services: services))
                }
                // The report not yet seen (detached from `research`): logged and counted here.
                let (reply, _) = try await ExchangeLog.recording(
                    "agent wait",
                    options: AskCommands.Options(model: agent, noSchema: true, prompt: job?.question ?? ""),
                    history: [], sessionTurn: false, context: context
                ) {
                    (
                        try await follow(
                            id, agent: agent, client: client, context: context, services: services), []
                    )
                }
                return .reply(reply)
            case "cancel":
                let cancelled: GeminiInteraction
                do {
                    cancelled = try await client.interactions.cancel(id, label: "agent", retryPolicy: policy)
                } catch let error as GeminiError {
                    // A job that has already ended cannot be cancelled: the server refuses it (400).
                    if case .http(404, _, _, _) = error { throw error }
                    guard
                        let ended = try? await client.interactions.get(
                            id, label: "agent", retryPolicy: policy),
                        ended.status.endsPolling, ended.status != .requiresAction
                    else { throw error }
                    try record(ended, journal: journal)
                    throw CommandFailure(
                        kind: .invalidRequest,
                        message: InteractionMessages.notRunning(id, status: ended.status.rawValue))
                }
                try record(cancelled, journal: journal)
                return .report("\(id): \(cancelled.status)", data: statusValue(cancelled, agent: agent))
            default:
                let interaction = try await client.interactions.get(id, label: "agent", retryPolicy: policy)
                try record(interaction, journal: journal)
                if action == "show", interaction.status == .completed {
                    return .reply(report(interaction, agent: agent, context: context))
                }
                var text = "\(id): \(interaction.status) (\(interaction.steps.count) steps)"
                for error in interaction.errors { text += "\nerror: \(error)" }
                return .report(text, data: statusValue(interaction, agent: agent))
            }
        } catch let error as GeminiError {
            if case .http(404, _, _, _) = error {
                throw CommandFailure(kind: .agentNotFound, message: InteractionMessages.unknownJob(id))
            }
            throw GeminiCall.failure(error, context: context)
        }
    }

    /// Polls job `id` (after 1 s, doubling to every 10 s), showing its steps, then prints its
    /// report. Ctrl-C detaches: the job goes on, and a note says how to pick it up.
    /// - Throws: ``CommandFailure`` (`agentFailed`) when it ends without a report; the
    ///   cancellation after Ctrl-C.
    static func follow(
        _ id: String, agent: String?, client: GeminiAPIClient, context: CommandContext,
        services: GeminiServices
    ) async throws -> CallReply {
        let journal = AgentJournal.url(services)
        services.retriesInFlight.reset()
        let started = ContinuousClock.now
        var progress = ResearchProgress(io: context.io)
        // Ctrl-C ends a script or one-command run at once (after this note); the REPL cancels
        // the wait instead, and the note below says the same.
        InterruptSignal.setExitNote(
            (progress.onTerminal ? "\r\u{1B}[K" : "") + InteractionMessages.detached(id) + "\n")
        defer { InterruptSignal.setExitNote(nil) }
        let final: GeminiInteraction
        do {
            final = try await client.interactions.wait(
                id, every: .seconds(1), upTo: .seconds(10), label: "research",
                retryPolicy: context.session.withGeminiState { $0.retryPolicy }
            ) { interaction in
                progress.show(interaction)
                try? record(interaction, journal: journal)
            }
        } catch {
            progress.finish()
            if error is CancellationError || Task.isCancelled {
                context.io.printError(InteractionMessages.detached(id))
                throw CancellationError()
            }
            if case .http(404, _, _, _) = error as? GeminiError {
                throw CommandFailure(kind: .agentNotFound, message: InteractionMessages.unknownJob(id))
            }
            if let error = error as? GeminiError { throw GeminiCall.failure(error, context: context) }
            throw error
        }
        progress.finish()
        try record(final, journal: journal)
        guard final.status == .completed else {
            throw CommandFailure(
                kind: .agentFailed,
                message: InteractionMessages.ended(id, status: final.status.rawValue, errors: final.errors))
        }
        // The job's usage is counted once (`show usage`), by the command that first follows it
        // to its report.
        if try AgentJournal.load(journal).job(id)?.counted != true {
            _ = GeminiCall.finish(
                model: final.agent ?? agent ?? "", requested: final.agent ?? agent ?? "",
                usage: final.usage?.metadata, retries: services.retriesInFlight.value, usedFallback: false,
                started: started, context: context)
            try AgentJournal.update(journal) { $0.setCounted(id) }
        }
        return report(final, agent: agent, context: context)
    }

    /// The report as Markdown, its sources as a numbered list of links; `$last` is that text.
    /// `--json` adds the job's `usage` and `cost` (docs/cost.md).
    static func report(_ interaction: GeminiInteraction, agent: String?, context: CommandContext) -> CallReply
    {
        var markdown = interaction.outputText
        while markdown.hasSuffix("\n") { markdown.removeLast() }
        let sources = interaction.sources
        if !sources.isEmpty {
            markdown +=
                "\n\n## Sources\n\n"
                + sources.enumerated().map { "\($0.offset + 1). [\($0.element.title)](\($0.element.url))" }
                .joined(separator: "\n")
        }
        var envelope = statusMembers(interaction, agent: agent)
        envelope.append(
            JSONMember(
                "sources",
                .array(
                    sources.map {
                        .object([JSONMember("title", .string($0.title)), JSONMember("url", .string($0.url))])
                    })))
        let usage = interaction.usage?.metadata
        envelope.append(JSONMember("usage", GeminiCall.usageValue(usage)))
        let cost = PriceBook.of(context)?.cost(
            model: interaction.agent ?? agent ?? "", usage: usage,
            tier: ServedTier.pricing(usage, context: context))
        envelope.append(JSONMember("cost", CostText.value(cost)))
        return CallReply(value: .string(markdown), display: markdown, envelope: envelope)
    }

    /// The journal's status of `interaction`, updated.
    private static func record(_ interaction: GeminiInteraction, journal: URL) throws {
        try AgentJournal.update(journal) { $0.setStatus(interaction.status.rawValue, of: interaction.id) }
    }

    private static func statusMembers(_ interaction: GeminiInteraction, agent: String?) -> [JSONMember] {
        [
            JSONMember("interaction", .string(interaction.id)),
            JSONMember("agent", (interaction.agent ?? agent).map(JSONValue.string) ?? .null),
            JSONMember("status", .string(interaction.status.rawValue)),
        ]
    }

    private static func statusValue(_ interaction: GeminiInteraction, agent: String?) -> JSONValue {
        .object(
            statusMembers(interaction, agent: agent) + [
                JSONMember("steps", .integer(interaction.steps.count)),
                JSONMember(
                    "errors",
                    .array(
                        interaction.errors.map {
                            .object([
                                JSONMember("code", .string($0.code)),
                                JSONMember("message", .string($0.message)),
                            ])
                        })),
            ])
    }

    private static func jobValue(_ job: AgentJournal.Job) -> JSONValue {
        .object([
            JSONMember("id", job.id.map(JSONValue.string) ?? .null),
            JSONMember("status", .string(job.status)),
            JSONMember("agent", .string(job.agent)), JSONMember("created", .string(job.created)),
            JSONMember("question", .string(job.question)),
        ])
    }
}

/// The agents `research` runs (docs/interactions.md): Google's Deep Research agents.
enum ResearchAgents {
    /// The default: "designed for speed and efficiency, ideal to be streamed back to a client UI".
    static let standard = "deep-research-preview-04-2026"
    /// Every agent name `research --agent` takes.
    static let known = [standard, "deep-research-max-preview-04-2026", "deep-research-pro-preview-12-2025"]
    /// `agent_config` sent with a research job: thought summaries on, so its steps show.
    static let config = "deep-research"
}
