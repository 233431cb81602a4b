import Foundation
import SophonCore
import SophonGemini

/// How a cost in US dollars is written (docs/cost.md): `$0.0000065` in text, a plain decimal in
/// `--json`, and "unknown" (never 0) for a model without a price. Shared by every plugin that
/// shows a cost (the reply envelope, `show usage`, summaries, `logs`, `compare`, reports).
enum CostText {
    /// A cost as printed: US dollars to at most 10 decimals, trailing zeros dropped but two
    /// kept (`$0.0000065`, `$1.50`), or `unknown` for a model without a price (never 0).
    static func text(_ usd: Double?) -> String {
        guard let usd else { return "unknown" }
        return "$" + decimal(usd)
    }

    /// `usd` as a plain decimal (`0.0000065`, `1.50`): at most 10 decimals, at least 2.
    static func decimal(_ usd: Double) -> String {
        var digits = String(format: "%.10f", GeminiPriceTable.rounded(usd))
        while digits.hasSuffix("0"), let dot = digits.firstIndex(of: "."),
            digits.distance(from: dot, to: digits.endIndex) > 3
        {
            digits.removeLast()
        }
        return digits
    }

    /// A cost in `--json`: the number of US dollars as a plain decimal (`0.0000065`, never
    /// `6.5e-06`), or the string `"unknown"`.
    static func value(_ usd: Double?) -> JSONValue {
        guard let usd, let number = JSONNumber(text: decimal(usd)) else { return .string("unknown") }
        return .number(number)
    }

    /// `show budget`: `$2.50 ($0.0012 spent)`; calls of a model without a price are not counted
    /// and said so, never taken as 0: `$2.50 ($0.0012 spent; 3 calls of unknown cost not counted)`.
    static func budget(_ budget: Double, spending: CostLedger) -> String {
        let unknown = spending.lines.reduce(0) { $0 + $1.unknownCalls }
        let uncounted =
            unknown == 0 ? "" : "; \(unknown) call\(unknown == 1 ? "" : "s") of unknown cost not counted"
        return "\(text(budget)) (\(text(spending.spent)) spent\(uncounted))"
    }

    /// The sum of `costs`; `nil` (unknown) when any is unknown.
    static func total(_ costs: [Double?]) -> Double? {
        var sum = 0.0
        for cost in costs {
            guard let cost else { return nil }
            sum += cost
        }
        return GeminiPriceTable.rounded(sum)
    }
}
