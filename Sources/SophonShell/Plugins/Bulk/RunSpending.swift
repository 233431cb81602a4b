import SophonCore
import SophonGemini
import Synchronization

/// The money side of `run` (docs/cost.md): each answer's cost is counted in the session
/// (`show usage`) and in the run's total (its summary), and `set budget` stops the run once the
/// session has spent it.
struct RunSpending {
    /// The run's own calls.
    private(set) var ledger = CostLedger()
    /// The run's own calls' tokens, summed.
    private(set) var usage = UsageTotals()
    let prices: PriceBook

    /// Counts one answer of `model`, priced at the tier that served it (``ServedTier``); returns
    /// its cost (`nil`: unknown).
    @discardableResult
    mutating func add(model: String, usage: UsageMetadata?, context: CommandContext) -> Double? {
        let cost = prices.cost(model: model, usage: usage, tier: ServedTier.pricing(usage, context: context))
        ledger.add(cost, model: model, usage: usage)
        self.usage.add(usage)
        CostLedger.count(cost, model: model, usage: usage, context: context)
        return cost
    }

    /// What `--json` gives as `run`'s result beside the summary's counts: this run's calls as
    /// `show usage` gives the session's, `{"calls", "usage", "models": [...], "cost"}`.
    var data: [JSONMember] {
        guard
            case .object(let members) = UsageReport.data(
                usage: usage, calls: ledger.lines.reduce(0) { $0 + $1.calls }, spending: ledger)
        else { return [] }
        return members
    }

    /// The session's budget and what it has spent, when the spending reached the budget.
    static func budgetReached(_ context: CommandContext) -> (spent: Double, budget: Double)? {
        let (budget, spent) = context.session.withGeminiState { ($0.budget, $0.spending.spent) }
        guard let budget, spent >= budget else { return nil }
        return (spent, budget)
    }
}

/// `set budget` before a request of `run` is sent (docs/commands.md: "stops a run when spent (lines
/// left unsent, resumable)"): what the run's calls cost is added as each call finishes
/// (``GeminiAPIClient/bulkRun(_:options:label:onSend:onResult:)``'s `onResult`, before the next
/// request is read), so once the session's spending with them reaches the budget, no request
/// is sent, however far behind the run's reading of the results is; only the calls already in
/// flight finish.
final class RunBudgetGate: Sendable {
    private let budget: Double?
    private let spentBefore: Double
    private let prices: PriceBook
    private let requestedTier: String?
    private let added = Mutex(0.0)

    /// A gate for a run of `context`'s session, under its budget (none: never closes).
    init(context: CommandContext, prices: PriceBook) {
        (budget, spentBefore) = context.session.withGeminiState { ($0.budget, $0.spending.spent) }
        requestedTier = context.session.withDeploymentState { $0.serviceTier }
        self.prices = prices
    }

    /// Adds what `result`'s call cost (an unknown cost adds nothing, as `set budget` counts).
    func add(_ result: BulkResult) {
        guard budget != nil, case .success(_, let model, let usage) = result.outcome,
            let cost = prices.cost(
                model: model, usage: usage, tier: ServedTier.pricing(usage, requested: requestedTier))
        else { return }
        added.withLock { $0 += cost }
    }

    /// Whether the budget is spent: no request is to be sent.
    var isSpent: Bool {
        guard let budget else { return false }
        return GeminiPriceTable.rounded(spentBefore + added.withLock { $0 }) >= budget
    }
}
