import SophonCore
import SophonGemini
import Testing

@testable import SophonShell

/// What `differences` compares (docs/commands.md, "compare"): the structured answers, and only
/// those; every candidate has a side on each line, in order.
@Suite struct CompareReportTests {
    /// A candidate of `model` that answered `answer`: structured when `valid` is given and true.
    static func outcome(
        _ model: String, _ answer: JSONValue?, valid: Bool? = nil, failure: CommandFailure? = nil
    ) -> CompareOutcome {
        var outcome = CompareOutcome(
            candidate: CompareCandidate(model: GeminiModel(id: model), contents: []), modelID: model)
        outcome.answer = answer
        outcome.schemaCheck = valid.map { ($0, $0 ? nil : "expected an object") }
        outcome.failure = failure
        return outcome
    }

    static func parse(_ text: String) -> JSONValue { (try? JSONValue(parsing: text)) ?? .null }

    /// Two equal structured answers beside text answers: no difference (the text answers were
    /// `(missing)` on a `$` line).
    @Test func equalStructuredAnswersBesideTextAreNoDifference() {
        let book = Self.parse(#"{"title": "sample title", "year": 1965}"#)
        let report = CompareReport(outcomes: [
            Self.outcome("a", .string("Hello, Ann!")), Self.outcome("b", .string("Hi Ann")),
            Self.outcome("a", book, valid: true), Self.outcome("b", book, valid: true),
        ])
        #expect(report.differences == [])
        #expect(report.text.contains("\n\ndifferences: none\n\n"))
        #expect(report.members.first?.key == "differences")
        #expect(report.members.first?.value == .array([]))
    }

    /// A difference has a side per candidate: the value, `(missing)` where a structured answer
    /// lacks the path, `(not structured)` for text (an answer that does not fit the schema
    /// too), `(error)` for a failed candidate; `null` in `--json` for all but values.
    @Test func eachCandidateHasASideOnEachLine() {
        let report = CompareReport(outcomes: [
            Self.outcome("a", Self.parse(#"{"title": "Dune", "year": 1965}"#), valid: true),
            Self.outcome("b", .string("Dune, 1965")),
            Self.outcome("c", Self.parse(#"{"title": "Dune"}"#), valid: true),
            Self.outcome("d", .string(#"{"title": 3}"#), valid: false),
            Self.outcome("e", nil, failure: CommandFailure(kind: .invalidRequest, message: "bad")),
            Self.outcome("f", Self.parse(#"{"title": "Dune", "year": 1966}"#), valid: true),
        ])
        #expect(
            report.differences?.map(\.description) == [
                "$.year: 1965 | (not structured) | (missing) | (not structured) | (error) | 1966"
            ])
        #expect(
            report.members.first?.value.compactText
                == #"[{"path":"$.year","values":[1965,null,null,null,null,1966]}]"#)
        #expect(
            report.page(title: "t").differences == [
                "$.year: 1965 | (not structured) | (missing) | (not structured) | (error) | 1966"
            ])
    }

    /// Fewer than two structured answers: nothing to compare, no `differences`.
    @Test func oneStructuredAnswerHasNoDifferences() {
        let report = CompareReport(outcomes: [
            Self.outcome("a", Self.parse(#"{"year": 1965}"#), valid: true),
            Self.outcome("b", .string("1966")),
        ])
        #expect(report.differences == nil)
        #expect(!report.text.contains("differences"))
        #expect(report.members.map(\.key) == ["cost"])
    }
}
