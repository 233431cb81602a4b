import Foundation

/// Bulk runs (docs/running-many-prompts.md): `run`, a JSON Lines file through the model with a
/// rate limiter and a resumable output, and `batch`, Google's Batch mode with a local journal.
/// Both send through the Gemini plugin's services (the one client, transcript and retry path).
final class BulkPlugin: ShellPlugin {
    let name = "bulk"
    /// The Gemini plugin, whose services the requests go through.
    let gemini: GeminiPlugin

    init(gemini: GeminiPlugin) {
        self.gemini = gemini
    }

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "run",
                usage:
                    "run INPUT -o OUTPUT [--prompt FILE] [--models A,B] [--jobs N] [--rpm R] [--tpm T] [--retry-failed] [--json] | run INPUT --estimate",
                summary:
                    "every line of a JSON Lines file through the model, resumable (OUTPUT in input order)",
                options: RunCommand.declared + [CommandOption.json], completion: .files, takesJSONFlag: true,
                run: gemini.needingServices { try await RunCommand.run($0, context: $1, services: $2) }),
            PluginCommand(
                name: "batch",
                usage:
                    "batch submit INPUT [--name N] [--max-requests M] [--estimate] [--json] | list | status NAME | wait NAME | "
                    + "results NAME -o OUTPUT | cancel NAME | delete NAME | resubmit NAME",
                summary: "Google's Batch mode (half price, up to 24 h), with a local journal of the jobs",
                options: BatchCommand.declared + [CommandOption.json], takesJSONFlag: true,
                run: gemini.needingServices { try await BatchCommand.run($0, context: $1, services: $2) }),
        ]
    }
}

/// The wording of `run` and `batch` (docs/running-many-prompts.md).
enum BulkMessages {
    /// A refused input: `INPUT: N bad line(s); nothing was sent`, then one
    /// `INPUT:LINE: MESSAGE` per bad line (up to 20), then `(and N more)`.
    static func badLines(_ input: String, issues: [BulkInputIssue], count: Int) -> String {
        var lines = ["\(input): \(count) bad line\(count == 1 ? "" : "s"); nothing was sent"]
        lines += issues.map { "\(input):\($0.line): \($0.message)" }
        if count > issues.count { lines.append("(and \(count - issues.count) more)") }
        return lines.joined(separator: "\n")
    }

    /// How many keys of a `run` kept an earlier answer, and why the others were sent again.
    struct Reuse: Equatable {
        /// Answered before for the same request: reused.
        var same = 0
        /// Answered before for another request: sent again.
        var changed = 0
        /// Answered before with no record of the request (an older journal): sent again.
        var unknown = 0
    }

    /// The closing line of `run` on stderr when it is not a terminal:
    /// `run: DONE/TOTAL done, F failed, R reused (same request)`, then `, C sent again
    /// (request changed)` and `, U sent again (no request hash recorded)` when there are any,
    /// then `; wrote OUTPUT`.
    /// `cost` (what the run's calls cost, as ``CostText/text(_:)`` prints it; docs/cost.md)
    /// goes before the output: `; cost $X`.
    static func summary(
        done: Int, total: Int, failed: Int, reuse: Reuse, cost: String? = nil, output: String?
    )
        -> String
    {
        var text = "run: \(done)/\(total) done, \(failed) failed, \(reuse.same) reused (same request)"
        if reuse.changed > 0 { text += ", \(reuse.changed) sent again (request changed)" }
        if reuse.unknown > 0 { text += ", \(reuse.unknown) sent again (no request hash recorded)" }
        if let cost { text += "; cost \(cost)" }
        return text + (output.map { "; wrote \($0)" } ?? "")
    }

    /// A `run` stopped by `set budget`: `run: budget reached ($SPENT spent of $BUDGET); N
    /// line(s) left unsent; the finished answers are in JOURNAL; raise the budget (set budget
    /// AMOUNT) and run the same command again to go on`.
    static func budgetReached(spent: Double, budget: Double, left: Int, journal: String) -> String {
        "run: budget reached (\(CostText.text(spent)) spent of \(CostText.text(budget))); "
            + "\(left) line\(left == 1 ? "" : "s") left unsent; the finished answers are in \(journal); "
            + "raise the budget (set budget AMOUNT) and run the same command again to go on"
    }

    /// `run --estimate` and `batch submit --estimate` (countTokens only, nothing generated):
    /// `COMMAND: N request(s), T input tokens; expected cost $X for the input` then, when the
    /// model has a price and `max-tokens` is set, `, at most $Y with max-tokens M`; a model
    /// without a price: `expected cost unknown (MODEL has no price)`.
    static func estimate(
        command: String, requests: Int, tokens: Int, model: String, inputCost: Double?,
        ceiling: (Double, Int)?
    ) -> String {
        var text = "\(command): \(requests) request\(requests == 1 ? "" : "s"), \(tokens) input tokens; "
        guard let inputCost else { return text + "expected cost unknown (\(model) has no price)" }
        text += "expected cost \(CostText.text(inputCost)) for the input (the output is priced as it comes)"
        if let (most, maxTokens) = ceiling {
            text += ", at most \(CostText.text(most)) with max-tokens \(maxTokens)"
        }
        return text
    }

    /// `batch submit` of an input whose requests differ from the job journaled under the same
    /// name (or whose job recorded none, or that came from `otherInput`): `batch submit: INPUT
    /// sends other requests than batches/ID (changed lines); submitting them as NAME`, `(the
    /// job of /path/other.jsonl)`.
    static func batchChanged(
        input: String, earlier: String, renamed: String, hashed: Bool, otherInput: String? = nil
    ) -> String {
        let why =
            otherInput.map { "the job of \($0)" } ?? (hashed ? "changed lines" : "no request hash recorded")
        return
            "batch submit: \(input) sends other requests than \(earlier) (\(why)); submitting them as \(renamed)"
    }

    /// A `run` stopped by Ctrl-C, after its progress line: `run: interrupted; the finished
    /// answers are in JOURNAL; run the same command again to go on (answered keys are not asked
    /// again)`.
    static func interrupted(journal: String) -> String {
        "run: interrupted; the finished answers are in \(journal); "
            + "run the same command again to go on (answered keys are not asked again)"
    }

    /// The end of a failed `run`'s error: how to ask the failed keys again.
    static let retryFailedHint = "add --retry-failed to ask them again"

    /// `batch list` when the project has no Batch jobs.
    static let noBatches = "(no batch jobs)"

    /// The progress line of `run` on a terminal: `run: DONE/TOTAL · R/s · ETA Ns · F failed`.
    static func progress(done: Int, total: Int, rate: Double, failed: Int) -> String {
        let eta = rate > 0 ? "\(Int((Double(total - done) / rate).rounded()))s" : "?"
        let shownRate = (rate * 10).rounded() / 10
        return "run: \(done)/\(total) · \(shownRate)/s · ETA \(eta) · \(failed) failed"
    }
}
