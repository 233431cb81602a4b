import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Tool rounds in the exchange log (PRODUCT §9: "every Gemini exchange of `ask`, `chat`, tool
/// rounds and `run` is logged"; docs/logs.md): each request of a tool exchange is a row, a
/// served round's answer is its calls, and `--continue` resumes the turns of every row. The
/// real binary against scripts/fake_gemini.py, with scripts/fake_mcp.py serving the calls.
@Suite(.childSlots) struct ToolRoundLogTests {
    /// The rows of `logs --json`, oldest first, as `[command, prompt, answer, totalTokens, cost]`
    /// texts.
    static func rows(_ shell: GeminiShell) async throws -> [[String]] {
        let listed = try await shell.run(["logs", "--json"])
        #expect(listed.status == 0)
        guard case .array(let entries) = try JSONValue(parsing: listed.stdout) else { return [] }
        return entries.map { entry in
            [
                entry["command"]?.stringValue ?? "", entry["prompt"]?.stringValue ?? "",
                entry["answer"]?.stringValue ?? entry["error"]?.compactText ?? "",
                entry["usage"]?["totalTokens"]?.compactText ?? "", entry["cost"]?.compactText ?? "",
            ]
        }
    }

    /// Expects the `contents` of the last request the server saw to be `json`.
    static func expectLastContents(_ shell: GeminiShell, _ json: String) async throws {
        let sent = try await shell.server.requests().last?.body["contents"]
        #expect(sent == (try JSONValue(parsing: json)))
    }

    static func trustFakeMCP(_ shell: GeminiShell) throws {
        _ = try shell.write(
            "mcp.json",
            #"{"mcpServers": {"fake": {"command": "\#(MCPShellToolTests.fakeServer)", "trust": true}}}"#)
    }

    @Test func eachServedRoundIsARowAndTheAnswerSumsThem() async throws {
        let shell = try await GeminiShell()
        try Self.trustFakeMCP(shell)
        try await shell.server.script([
            MCPShellToolTests.calls(#"{"id": "c1", "name": "echo", "args": {"text": "hi"}}"#),
            MCPShellToolTests.calls(#"{"id": "c2", "name": "add", "args": {"a": 1, "b": 2}}"#),
            MCPShellToolTests.text("Done."),
        ])
        let asked = try await shell.run(["--no-rc", "--json", "ask", "Echo hi"])
        #expect(asked.status == 0)
        // Three requests of 11 tokens each at $0.00002925: the answer's usage and cost sum them.
        #expect(
            asked.stdout == """
                {"command":"ask Echo hi","ok":true,"result":"Done.","model":"gemini-3.8-flash",\
                "usage":{"promptTokens":12,"outputTokens":21,"thoughtsTokens":0,"totalTokens":33},\
                "retries":0,"cost":0.00008775}

                """)
        #expect(
            try await Self.rows(shell) == [
                [
                    "ask", "Echo hi", #"{"functionCalls":[{"id":"c1","name":"echo","args":{"text":"hi"}}]}"#,
                    "11", "0.00002925",
                ],
                [
                    "ask",
                    #"{"functionResponse":{"id":"c1","name":"echo","response":{"content":"echo: hi"}}}"#,
                    #"{"functionCalls":[{"id":"c2","name":"add","args":{"a":1,"b":2}}]}"#, "11", "0.00002925",
                ],
                [
                    "ask", #"{"functionResponse":{"id":"c2","name":"add","response":{"sum":3}}}"#, "Done.",
                    "11",
                    "0.00002925",
                ],
            ])
    }

    /// Over the Interactions API each interaction of the loop is a row, counted in `show usage`
    /// as a call of its own.
    @Test func eachInteractionIsARow() async throws {
        let shell = try await GeminiShell()
        try Self.trustFakeMCP(shell)
        try await shell.server.script([
            #"{"interaction": true, "functionCalls": [{"id": "c1", "name": "echo", "arguments": {"text": "hi"}}], "#
                + #""usage": {"input": 5, "output": 7, "thought": 0}}"#,
            #"{"interaction": true, "text": "Done.", "usage": {"input": 9, "output": 2, "thought": 0}}"#,
        ])
        let asked = try await shell.run(["--no-rc"], stdin: "set api interactions\nask Echo hi\nshow usage\n")
        #expect(
            asked.stdout == """
                Done.
                2 calls: 14 prompt, 9 output, 0 thoughts, 23 total tokens
                gemini-3.8-flash: 2 calls, 23 tokens, $0.00004425
                total cost: $0.00004425

                """)
        #expect(
            try await Self.rows(shell) == [
                [
                    "ask", "Echo hi", #"{"functionCalls":[{"id":"c1","name":"echo","args":{"text":"hi"}}]}"#,
                    "12",
                    "0.00003",
                ],
                [
                    "ask",
                    #"{"functionResponse":{"id":"c1","name":"echo","response":{"content":"echo: hi"}}}"#,
                    "Done.", "11", "0.00001425",
                ],
            ])
    }

    /// A chat's rounds are rows of its conversation, and `--continue` sends them all again.
    @Test func continueResumesEveryRound() async throws {
        let shell = try await GeminiShell()
        try Self.trustFakeMCP(shell)
        try await shell.server.script([
            MCPShellToolTests.calls(#"{"id": "c1", "name": "echo", "args": {"text": "hi"}}"#),
            MCPShellToolTests.text("Done."),
            MCPShellToolTests.text("Again."),
        ])
        #expect(try await shell.run(["--no-rc", "chat", "Echo hi"]).stdout == "Done.\n")
        try shell.write("mcp.json", "{}")
        let resumed = try await shell.run(["--no-rc", "--continue", "chat", "more"])
        #expect(resumed.stdout == "Again.\n")
        try await Self.expectLastContents(
            shell,
            #"""
            [{"role": "user", "parts": [{"text": "Echo hi"}]},
             {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "echo", "args": {"text": "hi"}}}]},
             {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "echo", "response": {"content": "echo: hi"}}}]},
             {"role": "model", "parts": [{"text": "Done."}]},
             {"role": "user", "parts": [{"text": "more"}]}]
            """#)
        #expect(try await Self.rows(shell).map(\.[0]) == ["chat", "chat", "chat"])
    }

    /// A chat left waiting for `tool-reply` is logged with its calls, but `--continue` leaves
    /// that exchange out: the API refuses a history that ends in unanswered calls.
    @Test func continueLeavesOutCallsNeverAnswered() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            MCPShellToolTests.text("First."),
            MCPShellToolTests.calls(#"{"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}"#),
            MCPShellToolTests.text("Again."),
        ])
        let first = try await shell.run(
            ["--no-rc"], stdin: "tool get_weather { city: string }\nchat hello\nchat Weather?\n")
        #expect(first.status == 0)
        let resumed = try await shell.run(["--no-rc", "--continue", "chat", "more"])
        #expect(resumed.stdout == "Again.\n")
        try await Self.expectLastContents(
            shell,
            #"""
            [{"role": "user", "parts": [{"text": "hello"}]},
             {"role": "model", "parts": [{"text": "First."}]},
             {"role": "user", "parts": [{"text": "more"}]}]
            """#)
        #expect(
            try await Self.rows(shell).map(\.[2]) == [
                "First.", #"{"functionCalls":[{"id":"c1","name":"get_weather","args":{"city":"Paris"}}]}"#,
                "Again.",
            ])
    }
}
