import Foundation
import SophonCore
import Testing

/// `compare` with tools (PRODUCT §14: "the same turn (session schema, system, tools, settings
/// fitted per model) on each model"): each model's turn goes through the one tool loop with the
/// functions plugins serve, as `ask`'s does; a function nobody serves ends the turn as its
/// answer. The real binary against scripts/fake_gemini.py, with the shouter plugin of
/// ``LazyToolServerTests``.
@Suite struct CompareToolTests {
    static let models = "gemini-2.5-flash,gemini-2.5-pro"

    /// Rules: each model first calls `shout`, then, given the function's response (a body with
    /// `functionResponse`), answers `MODEL heard HI`.
    static var shoutRules: String {
        let rules = ["gemini-2.5-flash", "gemini-2.5-pro"].flatMap { model in
            [
                #"{"model": "\#(model)", "match": "functionResponse", "reply": {"kind": "generate", "#
                    + #""text": "\#(model) heard HI", "usage": {"prompt": 20, "candidates": 4}}}"#,
                #"{"model": "\#(model)", "reply": {"kind": "generate", "functionCalls": [{"id": "s1", "#
                    + #""name": "shout", "args": {"text": "hi"}}], "usage": {"prompt": 10, "candidates": 2}}}"#,
            ]
        }
        return #"{"reset": true, "rules": [\#(rules.joined(separator: ","))]}"#
    }

    @Test func eachModelRunsThePluginsToolsThroughTheLoop() throws {
        let shell = try GeminiShell()
        _ = try LazyToolServerTests.install(shell, mcp: false)
        _ = try shell.server.control("POST", "/_sophon/rules", body: Self.shoutRules)
        let outcome = try shell.run([
            "--allow-tools", "-c", "compare --models \(Self.models) --html c.html go\necho ${last[1].answer}",
        ])
        #expect(outcome.status == 0)
        // 2.5 Flash: (10 + 20) x 0.30 + (2 + 4) x 2.50 per 1M; 2.5 Pro: 30 x 1.25 + 6 x 10.
        #expect(
            CompareShellTests.withoutLatency(outcome.stdout) == """
                gemini-2.5-flash
                  tokens: 30 input, 6 output, 0 thought, 0 cached
                  cost: $0.000024
                  answer: gemini-2.5-flash heard HI

                gemini-2.5-pro
                  tokens: 30 input, 6 output, 0 thought, 0 cached
                  cost: $0.0000975
                  answer: gemini-2.5-pro heard HI

                total cost: $0.0001215
                gemini-2.5-pro heard HI

                """)
        #expect(
            outcome.stderr
                == String(repeating: #"tool shout {"text":"hi"} -> {"loud":"HI"}"# + "\n", count: 2))
        let requests = try shell.server.requests()
        #expect(requests.count == 4)
        for request in requests {
            #expect(LazyToolServerTests.declared(request.body) == ["shout"])
        }
        let answered = requests.filter { $0.bodyText.contains("functionResponse") }
        #expect(
            Set(answered.map(\.path)) == [
                "/v1beta/models/gemini-2.5-flash:generateContent",
                "/v1beta/models/gemini-2.5-pro:generateContent",
            ])
        for request in answered {
            #expect(
                request.body["contents"]?[2]
                    == (try JSONValue(
                        parsing: #"""
                            {"role": "user", "parts": [{"functionResponse": {"id": "s1", "name": "shout",
                              "response": {"loud": "HI"}}}]}
                            """#)))
        }
        // The report shows both rounds of each model.
        let page = try #require(shell.read("c.html"))
        #expect(page.components(separatedBy: "<details class=\"exchange\">").count == 5)
        #expect(page.contains("<summary>request 2: gemini-2.5-pro</summary>"))
        #expect(page.contains("<pre class=\"answer\">gemini-2.5-pro heard HI</pre>"))
    }

    /// A function declared with `tool` (nobody serves it): each model's calls are its answer.
    @Test func callsNobodyServesAreTheAnswer() throws {
        let shell = try GeminiShell()
        let call =
            #"{"kind": "generate", "functionCalls": [{"id": "w1", "name": "weather", "args": {"city": "Oslo"}}]}"#
        _ = try shell.server.control(
            "POST", "/_sophon/rules",
            body: CompareShellTests.rules([("gemini-2.5-flash", call), ("gemini-2.5-pro", call)]))
        let outcome = try shell.run([
            "-c",
            """
            tool weather {city: string} "The weather of a city"
            compare --models \(Self.models) weather in Oslo?
            echo ${last[0].answer.functionCalls[0].name} ${last[1].answer.functionCalls[0].args.city}
            """,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(
            CompareShellTests.withoutLatency(outcome.stdout).contains(
                #"answer: {"functionCalls":[{"id":"w1","name":"weather","args":{"city":"Oslo"}}]}"#))
        #expect(outcome.stdout.hasSuffix("weather Oslo\n"))
        let requests = try shell.server.requests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { LazyToolServerTests.declared($0.body) == ["weather"] })
    }
}
