import Foundation
import SophonCore
import SophonGemini

/// What `compare` prints and keeps (docs/commands.md, "compare"): one block per candidate in
/// the order given, the field-by-field differences of structured answers, and the total cost;
/// `$last` is an array in the same order, one `{"model", "answer", "usage", "cost", "error"}`
/// per candidate (with `"prompt"` under `--prompts`).
struct CompareReport {
    var outcomes: [CompareOutcome]
    /// Masks the key in the `--html` page's requests and answers.
    var redact: @Sendable (String) -> String = { $0 }

    /// One candidate's side of a difference.
    enum Side: Equatable {
        /// Its structured answer's value at the path.
        case value(JSONValue)
        /// Its structured answer has no value at the path.
        case missing
        /// Its answer is not structured (text: no schema, or one it does not fit; function
        /// calls): not compared.
        case notStructured
        /// It failed: no answer to compare.
        case failed

        /// As the `differences:` line shows it: compact JSON, `(missing)`, `(not structured)`,
        /// `(error)`.
        var text: String {
            switch self {
            case .value(let value): value.compactText
            case .missing: "(missing)"
            case .notStructured: "(not structured)"
            case .failed: "(error)"
            }
        }

        /// As `--json`'s `values` holds it: the value, else `null`.
        var json: JSONValue {
            if case .value(let value) = self { return value }
            return .null
        }
    }

    /// One JSON path where the structured answers differ, with every candidate's side in order.
    struct Difference: Equatable, CustomStringConvertible {
        /// `$.year`, `$.tags[1]`.
        var path: String
        var sides: [Side]

        /// `$.year: 1966 | 1965 | (not structured)`.
        var description: String { path + ": " + sides.map(\.text).joined(separator: " | ") }
    }

    /// The differences among the structured answers (``CompareOutcome/structuredAnswer``), and
    /// only those, when at least two candidates gave one; `nil` otherwise. Those answers are
    /// compared field by field (``JSONDifference/among(_:)``: objects member by member, arrays
    /// item by item, other values as values), so equal structured answers make no difference
    /// whatever the other candidates answered; each difference then has a side per candidate,
    /// in order, those without a structured answer marked as such.
    var differences: [Difference]? {
        let compared = outcomes.indices.filter { outcomes[$0].structuredAnswer != nil }
        guard compared.count >= 2 else { return nil }
        return JSONDifference.among(compared.map { outcomes[$0].structuredAnswer }).map { difference in
            Difference(
                path: difference.path,
                sides: outcomes.indices.map { index in
                    if let position = compared.firstIndex(of: index) {
                        return difference.values[position].map(Side.value) ?? .missing
                    }
                    return outcomes[index].failure == nil ? .notStructured : .failed
                })
        }
    }

    /// The cost of every call, `nil` (unknown) when any model's is.
    var totalCost: Double? { CostText.total(outcomes.filter { $0.failure == nil }.map(\.cost)) }

    /// The failed candidates.
    var failed: [CompareOutcome] { outcomes.filter { $0.failure != nil } }

    /// The blocks, the differences and the total, as printed.
    var text: String {
        var lines: [String] = []
        for outcome in outcomes {
            if !lines.isEmpty { lines.append("") }
            lines += block(outcome)
        }
        if let differences {
            lines.append("")
            if differences.isEmpty {
                lines.append("differences: none")
            } else {
                lines.append("differences:")
                lines += differences.map { "  \($0)" }
            }
        }
        lines.append("")
        lines.append("total cost: \(CostText.text(totalCost))")
        return lines.joined(separator: "\n")
    }

    /// One candidate's block: heading, latency, tokens, cost, answer, schema validity; or the error.
    func block(_ outcome: CompareOutcome) -> [String] {
        var lines = [outcome.candidate.label]
        lines.append("  latency: \(outcome.latency.wholeMilliseconds) ms")
        if let failure = outcome.failure {
            lines.append("  error: \(failure.kind.rawValue): \(failure.message)")
            return lines
        }
        let usage = outcome.usage
        lines.append(
            "  tokens: \(usage?.promptTokenCount ?? 0) input, \(usage?.candidatesTokenCount ?? 0) output, "
                + "\(usage?.thoughtsTokenCount ?? 0) thought, \(usage?.cachedContentTokenCount ?? 0) cached")
        lines.append("  cost: \(CostText.text(outcome.cost))")
        let answer = outcome.answer.map { $0.stringValue ?? $0.compactText } ?? ""
        let answerLines = answer.split(separator: "\n", omittingEmptySubsequences: false)
        lines.append("  answer: " + (answerLines.first.map(String.init) ?? ""))
        lines += answerLines.dropFirst().map { "    " + $0 }
        if let check = outcome.schemaCheck {
            lines.append("  schema: " + (check.valid ? "valid" : "invalid (\(check.problem ?? ""))"))
        }
        return lines
    }

    /// The `--html` page: the summary (total cost, failures), a row per candidate (status,
    /// latency, tokens, cost, schema), the differences, and each candidate's answer, cost and
    /// exchanges (``exchanges(_:)``).
    func page(title: String) -> HTMLReport {
        let failedCount = failed.count
        var summary = [
            "\(outcomes.count) compared, \(failedCount) failed", "total cost: \(CostText.text(totalCost))",
        ]
        if let differences { summary.append("differences: \(differences.count)") }
        let rows = outcomes.enumerated().map { index, outcome in
            let usage = outcome.usage
            let status: HTMLReport.Status = outcome.failure == nil ? .pass : .fail
            return HTMLReport.Row(
                label: outcome.candidate.label,
                cells: [
                    .init(
                        text: outcome.failure.map { $0.kind.rawValue } ?? "ok", status: status,
                        detail: "result-\(index + 1)"),
                    .init(text: "\(outcome.latency.wholeMilliseconds) ms"),
                    .init(
                        text:
                            "\(usage?.promptTokenCount ?? 0) in / \(usage?.candidatesTokenCount ?? 0) out / "
                            + "\(usage?.thoughtsTokenCount ?? 0) thought / \(usage?.cachedContentTokenCount ?? 0) cached"
                    ),
                    .init(text: outcome.failure == nil ? CostText.text(outcome.cost) : "-"),
                    .init(
                        text: outcome.schemaCheck.map { $0.valid ? "valid" : "invalid" } ?? "-",
                        status: outcome.schemaCheck.map { $0.valid ? .pass : .fail } ?? .info),
                ])
        }
        let details = outcomes.enumerated().map { index, outcome in
            var sections: [(name: String, text: String)] = []
            if let answer = outcome.answer {
                sections.append(("answer", answer.stringValue ?? answer.prettyText))
            }
            if let check = outcome.schemaCheck, !check.valid {
                sections.append(("schema", check.problem ?? "invalid"))
            }
            if let failure = outcome.failure {
                sections.append(("error", "\(failure.kind.rawValue): \(failure.message)"))
            }
            sections.append(("cost", outcome.failure == nil ? CostText.text(outcome.cost) : "-"))
            return HTMLReport.Detail(
                id: "result-\(index + 1)", title: outcome.candidate.label,
                status: outcome.failure == nil ? .pass : .fail, sections: sections,
                exchanges: exchanges(outcome))
        }
        return HTMLReport(
            title: title, summary: summary,
            columns: ["model", "result", "latency", "tokens", "cost", "schema"],
            rows: rows, differences: differences?.map(\.description) ?? [], details: details)
    }

    /// The requests `outcome` sent, each with the model turn it got: one without tools, one per
    /// round of the tool loop (the function responses of a round are in the next request); a
    /// request that got no answer shows the error. None when no request could be built.
    func exchanges(_ outcome: CompareOutcome) -> [HTMLReport.Exchange] {
        guard var request = outcome.request else { return [] }
        let turns = outcome.turns
        return (0...(turns.count / 2)).map { round in
            request.contents = outcome.candidate.contents + turns.prefix(2 * round)
            let answer =
                2 * round < turns.count
                ? Self.answerText(turns[2 * round])
                : "no answer: " + (outcome.failure.map { "\($0.kind.rawValue): \($0.message)" } ?? "none")
            return HTMLReport.Exchange(
                title: "request \(round + 1): \(outcome.candidate.model.id)",
                request: redact(Self.prettyJSON(request)), answer: redact(answer))
        }
    }

    /// A model turn as the page shows it: its text when it is all text (thoughts left out), else
    /// its parts as indented JSON (function calls, media, code).
    static func answerText(_ turn: Content) -> String {
        let parts = (turn.parts ?? []).filter { $0.thought != true }
        let texts = parts.compactMap(\.text)
        guard texts.count != parts.count else { return texts.joined() }
        return prettyJSON(parts)
    }

    /// `value` as indented JSON, members in the order the API documents them (as sent), written
    /// as the other reports write JSON (``JSONValue/prettyText``).
    static func prettyJSON<Value: Encodable>(_ value: Value) -> String {
        (try? OrderedJSONEncoder().encode(value))?.prettyText ?? ""
    }

    /// `$last`: one object per candidate, in order.
    var last: JSONValue {
        .array(
            outcomes.map { outcome in
                var members: [JSONMember] = []
                if let file = outcome.candidate.promptFile {
                    members.append(JSONMember("prompt", .string(file)))
                }
                members += [
                    JSONMember("model", .string(outcome.modelID)),
                    JSONMember("answer", outcome.answer ?? .null),
                    JSONMember("usage", GeminiCall.usageValue(outcome.usage)),
                    JSONMember("cost", outcome.failure == nil ? CostText.value(outcome.cost) : .null),
                    JSONMember(
                        "error",
                        outcome.failure.map { failure in
                            .object([
                                JSONMember("kind", .string(failure.kind.rawValue)),
                                JSONMember("message", .string(failure.message)),
                            ])
                        } ?? .null),
                ]
                return .object(members)
            })
    }

    /// The `--json` members beside the result: `differences` (`[{"path", "values"}]`, absent
    /// without two structured answers) and `cost` (the total).
    var members: [JSONMember] {
        var members: [JSONMember] = []
        if let differences {
            members.append(
                JSONMember(
                    "differences",
                    .array(
                        differences.map { difference in
                            .object([
                                JSONMember("path", .string(difference.path)),
                                JSONMember("values", .array(difference.sides.map(\.json))),
                            ])
                        })))
        }
        members.append(JSONMember("cost", CostText.value(totalCost)))
        return members
    }
}
