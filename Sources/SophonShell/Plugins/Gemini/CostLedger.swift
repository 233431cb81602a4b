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

/// `show usage` (docs/commands.md, docs/cost.md): the session's calls and token totals, each
/// model's calls, tokens and cost in first-use order, and the total cost.
enum UsageReport {
    /// `N calls: P prompt (C of them cached), O output, T thoughts, X total tokens` (the cached
    /// part only when some were), a line per model
    /// (`MODEL: N calls, X tokens, $COST`), then `total cost: $COST` (`unknown` when a model
    /// has no price).
    static func text(usage: UsageTotals, calls: Int, spending: CostLedger) -> String {
        let cached = usage.cachedTokens > 0 ? " (\(usage.cachedTokens) of them cached)" : ""
        var lines = [
            "\(calls) call\(calls == 1 ? "" : "s"): \(usage.promptTokens) prompt\(cached), "
                + "\(usage.outputTokens) output, \(usage.thoughtsTokens) thoughts, \(usage.totalTokens) total tokens"
        ]
        for line in spending.lines {
            lines.append(
                "\(line.model): \(line.calls) call\(line.calls == 1 ? "" : "s"), \(line.tokens.totalTokens) tokens, "
                    + CostText.text(line.cost))
        }
        lines.append("total cost: \(CostText.text(spending.total))")
        return lines.joined(separator: "\n")
    }

    /// `{"calls", "usage", "models": [{"model", "calls", "usage", "cost"}], "cost"}`.
    static func data(usage: UsageTotals, calls: Int, spending: CostLedger) -> JSONValue {
        .object([
            JSONMember("calls", .integer(calls)),
            JSONMember("usage", value(usage)),
            JSONMember(
                "models",
                .array(
                    spending.lines.map { line in
                        .object([
                            JSONMember("model", .string(line.model)),
                            JSONMember("calls", .integer(line.calls)),
                            JSONMember("usage", value(line.tokens)),
                            JSONMember("cost", CostText.value(line.cost)),
                        ])
                    })),
            JSONMember("cost", CostText.value(spending.total)),
        ])
    }

    private static func value(_ usage: UsageTotals) -> JSONValue {
        // `cachedTokens` only when a context cache served some, as in a reply's usage.
        .object(
            [JSONMember("promptTokens", .integer(usage.promptTokens))]
                + (usage.cachedTokens > 0 ? [JSONMember("cachedTokens", .integer(usage.cachedTokens))] : [])
                + [
                    JSONMember("outputTokens", .integer(usage.outputTokens)),
                    JSONMember("thoughtsTokens", .integer(usage.thoughtsTokens)),
                    JSONMember("totalTokens", .integer(usage.totalTokens)),
                ])
    }
}
