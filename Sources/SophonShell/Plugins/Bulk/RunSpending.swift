import SophonCore
import SophonGemini

/// The money side of `run` (docs/cost.md): each answer's cost is counted in the session
/// (`show usage`) and in the run's total (its summary), and `set budget` stops the run once the
/// session has spent it.
struct RunSpending {
    /// The run's own calls.
    private(set) var ledger = CostLedger()
    let prices: PriceBook

    /// Counts one answer of `model`, priced at the tier that served it (``ServedTier``); returns
    /// its cost (`nil`: unknown).
    @discardableResult
    mutating func add(model: String, usage: UsageMetadata?, context: CommandContext) -> Double? {
        let cost = prices.cost(model: model, usage: usage, tier: ServedTier.pricing(usage, context: context))
        ledger.add(cost, model: model, usage: usage)
        CostLedger.count(cost, model: model, usage: usage, context: context)
        return cost
    }

    /// The session's budget and what it has spent, when the spending reached the budget.
    static func budgetReached(_ context: CommandContext) -> (spent: Double, budget: Double)? {
        let (budget, spent) = context.session.withGeminiState { ($0.budget, $0.spending.spent) }
        guard let budget, spent >= budget else { return nil }
        return (spent, budget)
    }
}
