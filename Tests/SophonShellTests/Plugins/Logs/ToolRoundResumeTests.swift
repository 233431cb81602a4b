import Foundation
import SophonCore
import SophonGemini
import SophonLogs
import SophonTestSupport
import Testing

@testable import SophonShell

/// `--continue` after tool exchanges that did not end well (docs/logs.md, "Commands"): an
/// exchange whose calls were never answered is left out whole wherever it sits in the
/// conversation, so the history sent again is one the API accepts, as the session sent it.
@Suite(.childSlots) struct ToolRoundResumeTests {
    /// A chat whose served round was answered but whose next request failed leaves a row of
    /// calls and a failed row: the session went on without that exchange, and so does
    /// `--continue` (it sent a call turn with no responses after it: a 400).
    @Test func continueLeavesOutAnExchangeThatFailedAfterServedCalls() async throws {
        let shell = try await GeminiShell()
        try ToolRoundLogTests.trustFakeMCP(shell)
        try await shell.server.script([
            MCPShellToolTests.text("First."),
            MCPShellToolTests.calls(#"{"id": "c1", "name": "echo", "args": {"text": "hi"}}"#),
            #"{"fault": "bad_request"}"#,
            MCPShellToolTests.text("Third."),
            MCPShellToolTests.text("Again."),
        ])
        let first = try await shell.run(["--no-rc"], stdin: "chat hello\nchat Echo hi\nchat third\n")
        #expect(first.stdout == "First.\nThird.\n")
        #expect(first.status == 1)
        try await ToolRoundLogTests.expectLastContents(
            shell,
            #"""
            [{"role": "user", "parts": [{"text": "hello"}]},
             {"role": "model", "parts": [{"text": "First."}]},
             {"role": "user", "parts": [{"text": "third"}]}]
            """#)
        try shell.write("mcp.json", "{}")
        let resumed = try await shell.run(["--no-rc", "--continue", "chat", "more"])
        #expect(resumed.stderr == "")
        #expect(resumed.stdout == "Again.\n")
        try await ToolRoundLogTests.expectLastContents(
            shell,
            #"""
            [{"role": "user", "parts": [{"text": "hello"}]},
             {"role": "model", "parts": [{"text": "First."}]},
             {"role": "user", "parts": [{"text": "third"}]},
             {"role": "model", "parts": [{"text": "Third."}]},
             {"role": "user", "parts": [{"text": "more"}]}]
            """#)
    }

    /// The rule itself: every exchange whose last model turn is calls with no responses after
    /// it is dropped back to its user turn; answered ones stay.
    @Test func answeredDropsEveryExchangeLeftWithCalls() {
        func user(_ text: String) -> Content { Content(role: "user", parts: [.text(text)]) }
        func model(_ text: String) -> Content { Content(role: "model", parts: [.text(text)]) }
        let call = Content(
            role: "model", parts: [Part(functionCall: FunctionCall(id: "c1", name: "f", args: .object([])))])
        let response = Content(
            role: "user",
            parts: [Part(functionResponse: FunctionResponse(id: "c1", name: "f", response: .object([])))])
        #expect(ExchangeLog.answered([]) == [])
        #expect(ExchangeLog.answered([user("a"), call]) == [])
        #expect(
            ExchangeLog.answered([
                user("a"), model("A"), user("b"), call, response, call, user("c"), model("C"),
            ])
                == [user("a"), model("A"), user("c"), model("C")])
        #expect(
            ExchangeLog.answered([user("a"), call, response, model("A"), user("b"), call])
                == [user("a"), call, response, model("A")])
        #expect(
            ExchangeLog.answered([user("a"), call, user("b"), call, response, model("B")])
                == [user("b"), call, response, model("B")])
    }

    /// The row of a request that failed after served calls starts when the served round before
    /// it was answered, not at the exchange's start (it was listed before that round's row in
    /// time), and lasts the rest of the exchange.
    @Test func theFailedRequestsRowStartsAfterTheServedRound() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var round = ExchangeRounds.Round(
            started: .init(), model: "m", usage: UsageMetadata(totalTokenCount: 4), cost: nil, served: true)
        round.time = start.addingTimeInterval(0.010)
        round.duration = .milliseconds(300)
        round.responses = Content(role: "user", parts: [.text("r")])
        var outcome = LogEntry(time: start, command: "ask", model: "m", prompt: "go")
        outcome.durationMilliseconds = 1_000
        outcome.error = "serverError: HTTP 500"
        let entries = ExchangeRounds.entries(outcome, rounds: [round])
        #expect(entries.map(\.time) == [start.addingTimeInterval(0.010), start.addingTimeInterval(0.310)])
        #expect(entries.map(\.durationMilliseconds) == [300, 690])
    }
}
