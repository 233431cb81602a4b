import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Synchronization

/// The model requests of one tool exchange, as the log keeps them (docs/logs.md, "What is
/// logged"): every request is a row of its own. A round whose calls were served by plugins or
/// MCP servers is a row whose answer is its calls; the last row is the exchange's outcome (its
/// answer, pending calls or error).
///
/// The tool loops report their rounds to ``current``, which ``ExchangeLog`` sets while a
/// command's exchange runs (`nil` otherwise: a dry run, or a command that does not log).
final class ExchangeRounds: Sendable {
    /// One model request of the exchange.
    struct Round: Sendable {
        /// When its request was sent.
        var time: Date
        /// The model that answered.
        var model: String
        /// Its `usageMetadata`.
        var usage: UsageMetadata?
        /// What it cost in US dollars; `nil` when unknown.
        var cost: Double?
        /// Wall time from sending to the answer, retries included.
        var duration: Duration
        /// Whether its calls were served and the exchange went on (a round before the last).
        var served: Bool
        /// Its answer as logged when `served`: `{"functionCalls": [...]}`, masked.
        var answer: String?
        /// Its turns: the user turn (the prompt, or the function responses of the round before)
        /// and the model turn; `nil` when the API keeps them (Interactions: the last row then
        /// keeps the turns its command gives).
        var turns: [Content]?
        /// When `served`, the function responses its calls got: the next request's prompt.
        var responses: Content?
        /// Over the Interactions API, the id of its interaction.
        var interaction: String?

        /// When a request was sent: the time logged, and the clock its duration counts on.
        struct Start {
            var clock = ContinuousClock.now
            var time = Date()
        }

        /// The round whose request was sent at `started` and has just been answered.
        init(
            started: Start, model: String, usage: UsageMetadata?, cost: Double?, served: Bool,
            answer: String? = nil, interaction: String? = nil
        ) {
            (time, duration) = (started.time, .now - started.clock)
            (self.model, self.usage, self.cost, self.served) = (model, usage, cost, served)
            (self.answer, self.interaction) = (answer, interaction)
        }
    }

    /// The rounds of a tool loop as they come (`ask`'s and `chat`'s over either API): each timed
    /// from its request and, once answered, finished as a single call is
    /// (``GeminiCall/finish(model:requested:usage:counted:retries:usedFallback:started:context:)``:
    /// counted, priced, its usage line shown).
    struct Recorder {
        /// The rounds answered so far, in order.
        var rounds: [Round] = []
        private var start = Round.Start()

        /// A round's request is about to go.
        mutating func sending(_ services: GeminiServices) {
            services.retriesInFlight.reset()
            start = Round.Start()
        }

        /// The round was answered: finishes it as a call and records it.
        /// - Returns: the call's `--json` members.
        mutating func received(
            model: String, requested: String, usage: UsageMetadata?, retries: Int, usedFallback: Bool,
            served: Bool, answer: String? = nil, interaction: String? = nil, context: CommandContext
        ) -> [JSONMember] {
            let envelope = GeminiCall.finish(
                model: model, requested: requested, usage: usage, retries: retries,
                usedFallback: usedFallback,
                started: start.clock, context: context)
            rounds.append(
                Round(
                    started: start, model: model, usage: usage, cost: GeminiCall.cost(in: envelope),
                    served: served,
                    answer: answer, interaction: interaction))
            return envelope
        }
    }

    /// The rounds of the exchange running in this task, if it is logged.
    @TaskLocal static var current: ExchangeRounds?

    private let rounds = Mutex<[Round]>([])

    /// Adds the rounds of one tool loop, in order.
    func record(_ new: [Round]) {
        rounds.withLock { $0 += new }
    }

    /// The rounds recorded so far.
    var recorded: [Round] { rounds.withLock { $0 } }

    /// `rounds` as reported by a loop, each given its turns from `turns` (the loop's turns
    /// from the user turn of its first request on: each model turn ends a round, and the
    /// function responses after it begin the next), and a served round its answer (its calls,
    /// masked by `redact`) and the responses its calls got.
    static func rounds(
        _ rounds: [Round], turns: some Sequence<Content>, redact: (JSONValue) -> JSONValue
    ) -> [Round] {
        var groups: [[Content]] = [[]]
        for turn in turns {
            groups[groups.count - 1].append(turn)
            if turn.role == "model" { groups.append([]) }
        }
        return rounds.enumerated().map { index, round in
            var round = round
            guard index < groups.count else { return round }
            round.turns = groups[index]
            guard round.served else { return round }
            round.answer = answer(
                (groups[index].last?.parts ?? []).compactMap(\.functionCall), redact: redact)
            round.responses = index + 1 < groups.count ? groups[index + 1].first : nil
            return round
        }
    }

    /// `rounds` of a loop over the Interactions API, each served round given the function
    /// responses its calls got: the runs of `function_result` steps in `steps` (the loop's
    /// steps), in order.
    static func answered(_ rounds: [Round], results steps: some Sequence<GeminiInteractionStep>) -> [Round] {
        var runs: [[Part]] = []
        var inRun = false
        for step in steps {
            guard case .functionResult(let id, let name, let result, _) = step.kind else {
                inRun = false
                continue
            }
            if !inRun { runs.append([]) }
            inRun = true
            runs[runs.count - 1].append(
                Part(functionResponse: FunctionResponse(id: id, name: name ?? "", response: result)))
        }
        var served = 0
        return rounds.map { round in
            var round = round
            guard round.served else { return round }
            if served < runs.count { round.responses = Content(role: "user", parts: runs[served]) }
            served += 1
            return round
        }
    }

    /// A served round's logged answer: `{"functionCalls": [...]}` (as `ask` returns calls),
    /// masked by `redact`.
    static func answer(_ calls: [FunctionCall], redact: (JSONValue) -> JSONValue) -> String {
        redact(.object([JSONMember("functionCalls", .array(calls.map(ToolExchange.callValue)))])).compactText
    }

    /// The rows of an exchange whose outcome is `outcome` (its answer or error, the settings
    /// and prompt it started with): one per round whose calls were served and answered, then
    /// the outcome's, which takes the last round's model, usage, cost, time and turns when
    /// that request was answered. With no round recorded, the outcome alone.
    static func entries(_ outcome: LogEntry, rounds: [Round]) -> [LogEntry] {
        guard !rounds.isEmpty else { return [outcome] }
        var entries: [LogEntry] = []
        var prompt = outcome.prompt
        func filled(_ entry: LogEntry, with round: Round) -> LogEntry {
            var entry = entry
            entry.time = round.time
            entry.model = round.model
            entry.prompt = prompt
            entry.count(round.usage)
            entry.cost = round.cost
            entry.durationMilliseconds = round.duration.wholeMilliseconds
            if let turns = round.turns { entry.turns = ExchangeLog.turnsJSON(turns) }
            if let id = round.interaction {
                entry.settings = ExchangeLog.withInteraction(entry.settings, id: id)
            }
            return entry
        }
        for round in rounds {
            // A round whose calls were answered is a row of its own; the round after which
            // nothing more was sent (its answer, calls left pending, or calls past
            // `tool-rounds`) is the outcome's row.
            guard round.served, let responses = round.responses else {
                entries.append(filled(outcome, with: round))
                return entries
            }
            var entry = filled(outcome, with: round)
            (entry.answer, entry.error) = (round.answer, nil)
            entry.turns = round.turns.flatMap(ExchangeLog.turnsJSON)
            entries.append(entry)
            // The next request's prompt: the function responses this round's calls got.
            prompt = ExchangeLog.text(of: responses)
        }
        // The request after the last answered round failed. It was sent after that round was
        // answered: its row starts there (not at the exchange's start, before the rows above
        // it) and lasts the rest of the exchange.
        var entry = outcome
        entry.prompt = prompt
        entry.turns = nil
        if let last = rounds.last {
            let sent = max(
                last.time.addingTimeInterval(Double(last.duration.wholeMilliseconds) / 1000), outcome.time)
            entry.time = sent
            let before = Int((sent.timeIntervalSince(outcome.time) * 1000).rounded())
            entry.durationMilliseconds = max(0, outcome.durationMilliseconds - before)
        }
        entries.append(entry)
        return entries
    }
}
