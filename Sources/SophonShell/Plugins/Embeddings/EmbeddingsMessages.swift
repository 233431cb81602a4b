/// The wording of the embeddings plugin (docs/embeddings.md).
enum EmbeddingsMessages {
    /// The fixed instruction of the `expect ... judge` grader (PRODUCT §13).
    static let graderInstruction = """
        You are a strict grader. You are given a RUBRIC and an OUTPUT produced by another model. \
        Decide whether the OUTPUT satisfies the RUBRIC. Answer with JSON only: "pass" (true when the \
        OUTPUT satisfies the RUBRIC), "score" (a number from 0 to 1: how well it satisfies it) and \
        "reason" (one or two sentences on why). Judge only against the RUBRIC.
        """

    /// The judge's user turn.
    static func graderPrompt(rubric: String, output: String) -> String {
        "RUBRIC:\n\(rubric)\n\nOUTPUT:\n\(output)"
    }

    /// `warning: PATH was corrupt: moved it to NEW and started a new embedding database`.
    static func movedAside(_ path: String, to moved: String) -> String {
        ShellMessages.warning(
            "\(path) was corrupt: moved it to \(moved) and started a new embedding database")
    }

    /// A score as the failure text shows it: two decimals (`0.62`).
    static func score(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        var text = String(format: "%.2f", rounded)
        if text == "-0.00" { text = "0.00" }
        return text
    }

    /// `expected LEFT similar RIGHT (score 0.62 < 0.8)`: the threshold as written.
    static func similarFailed(left: String, right: String, score: Double, threshold: String) -> String {
        "expected \(left) similar \(right) (score \(Self.score(score)) < \(threshold))"
    }

    /// `expected LEFT judge RUBRIC (pass false, score 0.30, threshold 0.5: REASON)`.
    static func judgeFailed(
        left: String, rubric: String, pass: Bool, score: Double, threshold: String, reason: String
    )
        -> String
    {
        "expected \(left) judge \(rubric) (pass \(pass), score \(Self.score(score)), threshold \(threshold): \(reason))"
    }

    /// The judge's reply did not fit `{pass, score, reason}`: the expect fails with why.
    /// `the threshold of similar is a score from 0 to 1, not 1.5` (after `expect: `).
    static func thresholdOutOfRange(_ op: String, _ given: String) -> String {
        "the threshold of \(op) is a score from 0 to 1, not \(given)"
    }

    static func judgeUnfit(_ why: String) -> String {
        "the judge's reply does not fit {pass: boolean, score: number (0..1), reason: string}: \(why)"
    }

    /// `embed-multi`'s report line.
    static func embedded(collection: String, embedded: Int, skipped: Int, requests: Int) -> String {
        "\(collection): \(embedded) embedded, \(skipped) skipped (already stored), "
            + "\(requests) request\(requests == 1 ? "" : "s")"
    }

    /// One `collections` line: `NAME  MODEL  DIMS dimensions  N rows`.
    static func collectionLine(name: String, model: String, dimensions: Int, count: Int) -> String {
        "\(name)  \(model)  \(dimensions) dimensions  \(count) row\(count == 1 ? "" : "s")"
    }
}
