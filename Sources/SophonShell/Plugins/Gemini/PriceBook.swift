import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// The prices of one `sophon` run (docs/cost.md): SophonGemini's built-in
/// ``GeminiPriceTable`` with `prices.json` of the config folder merged over it, read once, on
/// first use. A `prices.json` that does not parse, has a value that is not a finite number >= 0,
/// or names a model not in the table without both `input` and `output`, is a warning naming the
/// file and the line and column (or the model and member); its prices are not used and the
/// command goes on.
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
        // The one state-file read: a folder, FIFO or device at the path is refused, never waited on.
        let data: Data
        do {
            guard let snapshot = try FileSnapshot.read(at: file) else { return .builtIn }
            data = snapshot.data
        } catch {
            io.printError(ShellMessages.warning("\(error); its prices are not used"))
            return .builtIn
        }
        do {
            let overrides = try GeminiPriceTable.overrides(parsing: String(decoding: data, as: UTF8.self))
            return try GeminiPriceTable.builtIn.merging(overrides)
        } catch {
            io.printError(ShellMessages.warning("\(file.path): \(error); its prices are not used"))
            return .builtIn
        }
    }
}
