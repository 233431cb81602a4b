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

    /// The closing line of `run` on stderr when it is not a terminal:
    /// `run: DONE/TOTAL done, F failed, S skipped (already answered); wrote OUTPUT`.
    static func summary(done: Int, total: Int, failed: Int, skipped: Int, output: String?) -> String {
        "run: \(done)/\(total) done, \(failed) failed, \(skipped) skipped (already answered)"
            + (output.map { "; wrote \($0)" } ?? "")
    }

    /// The progress line of `run` on a terminal: `run: DONE/TOTAL · R/s · ETA Ns · F failed`.
    static func progress(done: Int, total: Int, rate: Double, failed: Int) -> String {
        let eta = rate > 0 ? "\(Int((Double(total - done) / rate).rounded()))s" : "?"
        let shownRate = (rate * 10).rounded() / 10
        return "run: \(done)/\(total) · \(shownRate)/s · ETA \(eta) · \(failed) failed"
    }
}
