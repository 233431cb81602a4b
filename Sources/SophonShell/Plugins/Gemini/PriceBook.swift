import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// The prices of one `sophon` run (docs/cost.md): SophonGemini's built-in
/// ``GeminiPriceTable`` with `prices.json` of the config folder merged over it, read once, on
/// first use. A `prices.json` that does not parse is a warning naming its line and column; its
/// prices are not used and the command goes on.
final class PriceBook: Sendable {
    /// `prices.json`.
    let file: URL
    private let io: ShellIO
    private let loaded = Mutex<GeminiPriceTable?>(nil)

    /// A book over `file`, warning on `io`.
    init(file: URL, io: ShellIO) {
        self.file = file
        self.io = io
    }

    /// The table in force.
    var table: GeminiPriceTable {
        loaded.withLock { cached in
            if let cached { return cached }
            let table = load()
            cached = table
            return table
        }
    }

    /// The run's book, from the Gemini plugin of `context`; `nil` before its services start.
    static func of(_ context: CommandContext) -> PriceBook? {
        context.registry.plugins.lazy.compactMap { ($0 as? GeminiPlugin)?.services }.first?.prices
    }

    /// What one exchange of `model` cost, in US dollars; `nil` when the model has no price.
    func cost(model: String, usage: UsageMetadata?, tier: GeminiServiceTier = .standard) -> Double? {
        table.cost(model: model, usage: usage, tier: tier)
    }

    private func load() -> GeminiPriceTable {
        guard FileManager.default.fileExists(atPath: file.path) else { return .builtIn }
        guard let data = try? Data(contentsOf: file) else {
            io.printError(ShellMessages.warning("\(file.path): cannot be read; its prices are not used"))
            return .builtIn
        }
        do {
            let overrides = try GeminiPriceTable.overrides(parsing: String(decoding: data, as: UTF8.self))
            return GeminiPriceTable.builtIn.merging(overrides)
        } catch {
            io.printError(ShellMessages.warning("\(file.path): \(error); its prices are not used"))
            return .builtIn
        }
    }

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
