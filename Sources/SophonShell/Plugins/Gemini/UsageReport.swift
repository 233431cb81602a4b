import SophonCore

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
