import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import Testing

@testable import SophonShell

/// How a tool exchange's rounds become log rows (``ExchangeRounds``; docs/logs.md, "What is
/// logged"): every request a row, never a row for a request not made.
@Suite struct ExchangeRoundsTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func call(_ id: String) -> Content {
        Content(
            role: "model", parts: [Part(functionCall: FunctionCall(id: id, name: "echo", args: .object([])))])
    }

    static func response(_ id: String) -> Content {
        Content(
            role: "user",
            parts: [
                Part(
                    functionResponse: FunctionResponse(
                        id: id, name: "echo", response: .object([JSONMember("ok", .bool(true))])))
            ])
    }

    static func round(_ tokens: Int, served: Bool) -> ExchangeRounds.Round {
        var round = ExchangeRounds.Round(
            started: .init(), model: "m", usage: UsageMetadata(totalTokenCount: tokens), cost: Double(tokens),
            served: served)
        round.time = start
        round.duration = .milliseconds(tokens)
        return round
    }

    static let outcome = LogEntry(time: start, command: "ask", model: "asked", prompt: "go")

    /// `[prompt, answer, error, totalTokens]` of each row.
    static func summary(_ entries: [LogEntry]) -> [[String]] {
        entries.map { [$0.prompt, $0.answer ?? "-", $0.error ?? "-", String($0.totalTokens)] }
    }

    static let user = Content(role: "user", parts: [.text("go")])

    @Test func servedRoundsThenTheAnswer() {
        let rounds = ExchangeRounds.rounds(
            [Self.round(1, served: true), Self.round(2, served: false)],
            turns: [
                Self.user, Self.call("c1"), Self.response("c1"),
                Content(role: "model", parts: [.text("done")]),
            ],
            redact: { $0 })
        var outcome = Self.outcome
        outcome.answer = "done"
        #expect(
            Self.summary(ExchangeRounds.entries(outcome, rounds: rounds)) == [
                ["go", #"{"functionCalls":[{"id":"c1","name":"echo","args":{}}]}"#, "-", "1"],
                [
                    #"{"functionResponse":{"id":"c1","name":"echo","response":{"ok":true}}}"#, "done", "-",
                    "2",
                ],
            ])
    }

    /// `tool-rounds` reached: the last round's calls were never answered, so its row is the
    /// outcome's (the error), not a served row plus a row for a request never made.
    @Test func callsPastToolRoundsAreTheOutcomesRow() {
        let rounds = ExchangeRounds.rounds(
            [Self.round(1, served: true), Self.round(2, served: true)],
            turns: [Self.user, Self.call("c1"), Self.response("c1"), Self.call("c2")], redact: { $0 })
        var outcome = Self.outcome
        outcome.error = "toolRoundsExceeded: after 2 rounds"
        #expect(
            Self.summary(ExchangeRounds.entries(outcome, rounds: rounds)) == [
                ["go", #"{"functionCalls":[{"id":"c1","name":"echo","args":{}}]}"#, "-", "1"],
                [
                    #"{"functionResponse":{"id":"c1","name":"echo","response":{"ok":true}}}"#, "-",
                    "toolRoundsExceeded: after 2 rounds", "2",
                ],
            ])
    }

    /// The request after a served round failed: its row has the responses as its prompt and the
    /// error, with no turns.
    @Test func aFailedRequestAfterServedCalls() {
        let rounds = ExchangeRounds.rounds(
            [Self.round(1, served: true)], turns: [Self.user, Self.call("c1"), Self.response("c1")],
            redact: { $0 })
        var outcome = Self.outcome
        outcome.error = "serverError: HTTP 500"
        let entries = ExchangeRounds.entries(outcome, rounds: rounds)
        #expect(
            Self.summary(entries) == [
                ["go", #"{"functionCalls":[{"id":"c1","name":"echo","args":{}}]}"#, "-", "1"],
                [
                    #"{"functionResponse":{"id":"c1","name":"echo","response":{"ok":true}}}"#, "-",
                    "serverError: HTTP 500", "0",
                ],
            ])
        #expect(entries.map { $0.turns == nil } == [false, true])
    }

    @Test func noRoundsIsTheOutcomeAlone() {
        #expect(ExchangeRounds.entries(Self.outcome, rounds: []) == [Self.outcome])
    }
}
