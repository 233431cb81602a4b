import Foundation
import SophonCore
import SophonGemini

/// What a session's calls cost, per model, in the order the models were first used (`show
/// usage`, `set budget`; docs/cost.md). A model without a price has an unknown cost, never 0.
struct CostLedger: Sendable, Equatable {
    /// One model's calls.
    struct Line: Sendable, Equatable {
        var model: String
        var calls = 0
        var tokens = UsageTotals()
        /// US dollars over the calls whose cost is known.
        var known = 0.0
        /// Calls whose cost is unknown.
        var unknownCalls = 0

        /// The cost, `nil` (unknown) when any call's is.
        var cost: Double? { unknownCalls == 0 ? GeminiPriceTable.rounded(known) : nil }
    }

    /// The models, in first-use order.
    private(set) var lines: [Line] = []

    /// Adds one exchange of `model`: its usage and cost (`nil`: unknown).
    mutating func add(_ cost: Double?, model: String, usage: UsageMetadata?) {
        var index = lines.firstIndex { $0.model == model }
        if index == nil {
            lines.append(Line(model: model))
            index = lines.count - 1
        }
        guard let index else { return }
        lines[index].calls += 1
        lines[index].tokens.add(usage)
        if let cost { lines[index].known += cost } else { lines[index].unknownCalls += 1 }
    }

    /// Counts one exchange in the session of `context`: its tokens (`show usage`), the call, and
    /// its cost (`nil`: unknown). Under `sophon test` (``costFileVariable`` set by the parent),
    /// the session's total is also written to that file, for the parent's summary.
    static func count(_ cost: Double?, model: String, usage: UsageMetadata?, context: CommandContext) {
        let total = context.session.withGeminiState { state in
            state.usage.add(usage)
            state.calls += 1
            state.spending.add(cost, model: model, usage: usage)
            return state.spending.total
        }
        if let path = costFile {
            try? Data(CostText.value(total).compactText.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The environment variable `sophon test` sets for each child: the file where the child keeps
    /// what its session's calls cost (a JSON number of US dollars, or `"unknown"`).
    static let costFileVariable = "SOPHON_TEST_COST_FILE"

    /// ``costFileVariable``'s file, read once (the environment is copied on every read).
    private static let costFile: String? = ProcessInfo.processInfo.environment[costFileVariable].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// US dollars spent on calls whose cost is known (what `set budget` counts).
    var spent: Double { GeminiPriceTable.rounded(lines.reduce(0) { $0 + $1.known }) }

    /// The whole cost, `nil` when any call's is unknown.
    var total: Double? { CostText.total(lines.map(\.cost)) }
}
