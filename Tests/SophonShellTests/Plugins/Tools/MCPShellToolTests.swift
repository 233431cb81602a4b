import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// MCP servers end to end (docs/mcp.md): the real binary against scripts/fake_gemini.py over
/// HTTP, with the scripted scripts/fake_mcp.py and the real `mcp-server-time` from PyPI
/// (installed into .build/venv by `scripts/ensure-deps --test`) as servers over stdio.
@Suite(.childSlots) struct MCPShellToolTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../..").standardizedFileURL
    }

    static var fakeServer: String { repository.appendingPathComponent("scripts/fake_mcp.py").path }

    static var timeServer: String {
        repository.appendingPathComponent(".build/venv/bin/mcp-server-time").path
    }

    static func calls(_ calls: String) -> String {
        #"{"kind": "generate", "functionCalls": ["# + calls + "]}"
    }

    static func text(_ text: String) -> String { #"{"kind": "generate", "text": "\#(text)"}"# }

    /// What `tools` lists for scripts/fake_mcp.py added as `fake`, one line a tool (the last
    /// without its newline).
    static let fakeTools = """
        echo     function  mcp fake  Echo a text
        lines    function  mcp fake  Two text items
        add      function  mcp fake  Add two integers
        fail     function  mcp fake  Always fails
        crash    function  mcp fake  Exits
        hang     function  mcp fake  Never answers
        garbage  function  mcp fake  Writes garbage
        """

    static let badSchemaNote =
        "bad_schema: input schema $.properties.x: allOf with several schemas cannot be converted; merge them"

    /// `mcp add` starts the server, pages `tools/list`, saves `mcp.json`; `mcp list`, `tools`
    /// and `mcp remove` show and drop it; bad input is a typed error.
    @Test func addListRemoveAndTheConfigFile() async throws {
        let shell = try await GeminiShell()
        let fake = Self.fakeServer
        let log = shell.home.appendingPathComponent("fake.log").path
        let outcome = try await shell.run([
            "-c", "mcp add fake -- \(fake) --page-size 3 --log \(log)", "-c",
            "mcp add --trust loop -- \(fake) --repeat-cursor --page-size 2", "-c", "mcp list", "-c", "tools",
            "-c",
            "mcp remove loop", "-c", "mcp add 9x -- a", "-c", "mcp add x", "-c",
            "mcp add x -- /nonexistent/y",
            "-c", "mcp remove nope",
        ])
        #expect(
            outcome.stdout == """
                fake  running  7 tools  untrusted  \(fake) --page-size 3 --log \(log)
                  not offered: \(Self.badSchemaNote)
                loop  running  0 tools  trusted    \(fake) --repeat-cursor --page-size 2
                  not offered: echo: server 'fake' offers a tool of that name
                  not offered: lines: server 'fake' offers a tool of that name
                \(Self.fakeTools)

                """)
        #expect(
            outcome.stderr == """
                warning: MCP server 'fake': tool '\(Self.badSchemaNote.replacingOccurrences(of: "bad_schema: ", with: "bad_schema' is not offered: "))
                warning: MCP server 'loop' sent the tools/list cursor 'again' twice; the listing stops there
                -c:6:1: error: mcp add: '9x' is not a valid server name (letters, digits, _ . -; a letter first)
                -c:7:1: error: usage: mcp add [--trust] NAME -- COMMAND [ARGS...] | mcp list | mcp remove NAME | mcp disable NAME | mcp enable NAME
                -c:8:1: error: mcp add: MCP server 'x' could not start: no such file: /nonexistent/y
                -c:9:1: error: mcp remove: no MCP server named 'nope' (see 'mcp list')

                """)
        #expect(outcome.status == 1)
        #expect(
            shell.read("mcp.json") == """
                {
                  "mcpServers": {
                    "fake": {
                      "command": "\(fake)",
                      "args": [
                        "--page-size",
                        "3",
                        "--log",
                        "\(log)"
                      ]
                    }
                  }
                }

                """)
        // What the server saw: the handshake, then three pages.
        let seen = (shell.read("fake.log") ?? "").split(separator: "\n").map(String.init)
        #expect(
            seen == [
                "start",
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sophon","version":"0.1.0"}}}"#,
                #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"page-2"}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"page-3"}}"#,
            ])
    }

    /// Text items joined with a newline, `structuredContent` as is, `isError` as `{"error"}`:
    /// one function response per call, in call order, for a trusted server of `mcp.json`
    /// (read with `--no-rc` too).
    @Test func resultsAreMappedAndSentBack() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "mcp.json", #"{"mcpServers": {"fake": {"command": "\#(Self.fakeServer)", "trust": true}}}"#)
        try await shell.server.script([
            Self.calls(
                #"{"id": "c1", "name": "echo", "args": {"text": "hi"}}, {"id": "c2", "name": "lines", "args": {}}, "#
                    + #"{"id": "c3", "name": "add", "args": {"a": 2, "b": 3}}, {"id": "c4", "name": "fail", "args": {}}"#
            ),
            Self.text("Done."),
        ])
        let outcome = try await shell.run(["--no-rc", "-c", "ask go"])
        #expect(outcome.stdout == "Done.\n")
        #expect(
            outcome.stderr == """
                tool echo {"text":"hi"} -> {"content":"echo: hi"}
                tool lines {} -> {"content":"first\\nsecond"}
                tool add {"a":2,"b":3} -> {"sum":5}
                tool fail {} -> {"error":"it failed on purpose"}

                """)
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.count == 2)
        #expect(
            requests.last?.body["contents"]?[2]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "user", "parts": [
                          {"functionResponse": {"id": "c1", "name": "echo", "response": {"content": "echo: hi"}}},
                          {"functionResponse": {"id": "c2", "name": "lines", "response": {"content": "first\nsecond"}}},
                          {"functionResponse": {"id": "c3", "name": "add", "response": {"sum": 5}}},
                          {"functionResponse": {"id": "c4", "name": "fail", "response": {"error": "it failed on purpose"}}}]}
                        """#)))
        let declarations = requests.first?.body["tools"]?[0]?["functionDeclarations"]
        #expect(
            declarations?[2]
                == (try JSONValue(
                    parsing: #"""
                        {"name": "add", "description": "Add two integers", "parameters": {"type": "OBJECT",
                          "properties": {"a": {"type": "INTEGER"}, "b": {"type": "INTEGER"}},
                          "required": ["a", "b"], "propertyOrdering": ["a", "b"]}}
                        """#)))
        #expect(
            declarations?[1]
                == (try JSONValue(parsing: #"{"name": "lines", "description": "Two text items"}"#)))
    }

    /// A crash, garbage and a hang fail their call only; a crashed server starts again on its
    /// next call once per command; the shell lives on and leaves no process behind.
    @Test func faultsAreIsolatedToTheCall() async throws {
        let shell = try await GeminiShell()
        let log = shell.home.appendingPathComponent("fake.log").path
        try await shell.server.script([
            Self.calls(
                #"{"id": "c1", "name": "crash", "args": {}}, {"id": "c2", "name": "echo", "args": {"text": "a"}}"#
            ),
            Self.calls(
                #"{"id": "c3", "name": "garbage", "args": {}}, {"id": "c4", "name": "echo", "args": {"text": "b"}}"#
            ),
            Self.text("Done."),
            Self.calls(#"{"id": "c5", "name": "echo", "args": {"text": "c"}}"#),
            Self.text("Again."),
            Self.calls(#"{"id": "c6", "name": "hang", "args": {}}"#),
            Self.text("Hung."),
        ])
        let outcome = try await shell.run([
            "-c", "mcp add --trust fake -- \(Self.fakeServer) --log \(log)", "-c", "ask go", "-c",
            "ask again",
            "-c", "set tool-timeout 2s", "-c", "ask hang",
        ])
        #expect(outcome.stdout == "Done.\nAgain.\nHung.\n")
        let crash = "MCP server 'fake' exited with status 3 during tools/call 'crash' (its stderr: 'boom')"
        let garbage =
            "MCP server 'fake' wrote a line that is not JSON-RPC: 'this is not json'; it was stopped"
        let once =
            "MCP server 'fake' stopped again after its restart in this command; it starts again on the next command"
        let hang = "MCP server 'fake' did not answer tools/call 'hang' within 2s; it was stopped"
        #expect(
            outcome.stderr == """
                warning: MCP server 'fake': tool '\(Self.badSchemaNote.replacingOccurrences(of: "bad_schema: ", with: "bad_schema' is not offered: "))
                tool crash {} -> {"error":"\(crash)"}
                tool echo {"text":"a"} -> {"content":"echo: a"}
                tool garbage {} -> {"error":"\(garbage)"}
                tool echo {"text":"b"} -> {"error":"\(once)"}
                tool echo {"text":"c"} -> {"content":"echo: c"}
                tool hang {} -> {"error":"\(hang)"}

                """)
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(
            requests[1].body["contents"]?[2]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "user", "parts": [
                          {"functionResponse": {"id": "c1", "name": "crash", "response": {"error": "\#(crash)"}}},
                          {"functionResponse": {"id": "c2", "name": "echo", "response": {"content": "echo: a"}}}]}
                        """#)))
        // Started at `mcp add`, after the crash, and on the next command.
        #expect((shell.read("fake.log") ?? "").split(separator: "\n").filter { $0 == "start" }.count == 3)
        #expect(try Self.processes(mentioning: log) == [])
    }

    /// Without a terminal an untrusted server's call is declined; `--allow-tools` runs it.
    @Test func anUntrustedServerNeedsConsent() async throws {
        let shell = try await GeminiShell()
        let call = Self.calls(#"{"id": "c1", "name": "echo", "args": {"text": "a"}}"#)
        try await shell.server.script([call, Self.text("Declined."), call, Self.text("Allowed.")])
        try shell.write("mcp.json", #"{"mcpServers": {"fake": {"command": "\#(Self.fakeServer)"}}}"#)
        let declined = try await shell.run(["-c", "ask go"])
        #expect(declined.stdout == "Declined.\n")
        #expect(
            declined.stderr == """
                tool echo: declined (no consent without a terminal: run with --allow-tools, or 'set tool-confirm off')
                tool echo {"text":"a"} -> {"error":"the user declined this call"}

                """)
        let allowed = try await shell.run(["--allow-tools", "-c", "ask go"])
        #expect(allowed.stdout == "Allowed.\n")
        #expect(allowed.stderr == #"tool echo {"text":"a"} -> {"content":"echo: a"}"# + "\n")
    }

    /// An answer with a served call and a call nobody serves: the served call runs at once
    /// (PRODUCT.md §6), the other is the command's result and waits for `tool-reply`; then
    /// both responses go back in call order. The replay answers the same way from the tape.
    @Test func aServedCallRunsAtOnceBesideACallLeftForToolReply() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            Self.calls(
                #"{"id": "c1", "name": "echo", "args": {"text": "a"}}, {"id": "c2", "name": "mine", "args": {"q": 1}}"#
            ),
            Self.text("Both answered."),
        ])
        let tape = shell.home.appendingPathComponent("mixed.tape").path
        let arguments = [
            "-c", "tool mine { q: integer }", "-c", "ask go", "-c",
            "expect ${last.functionCalls[0].name} == mine",
            "-c", #"tool-reply mine {"v": 2}"#,
        ]
        let outcome = try await shell.run(
            ["--no-rc", "--record", tape, "-c", "mcp add --trust fake -- \(Self.fakeServer)"] + arguments)
        let expectedOut = """
            {
              "functionCalls": [
                {
                  "id": "c2",
                  "name": "mine",
                  "args": {
                    "q": 1
                  }
                }
              ]
            }
            Both answered.
            1 passed, 0 failed

            """
        #expect(outcome.stdout == expectedOut)
        #expect(
            outcome.stderr
                == "warning: MCP server 'fake': tool \(Self.badSchemaNote.replacingOccurrences(of: "bad_schema: ", with: "'bad_schema' is not offered: "))\n"
                + #"tool echo {"text":"a"} -> {"content":"echo: a"}"# + "\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.count == 2)
        #expect(
            requests.last?.body["contents"]?[2]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "user", "parts": [
                          {"functionResponse": {"id": "c1", "name": "echo", "response": {"content": "echo: a"}}},
                          {"functionResponse": {"id": "c2", "name": "mine", "response": {"v": 2}}}]}
                        """#)))
        shell.server.stop()
        try shell.write(
            "mcp.json", #"{"mcpServers": {"fake": {"command": "/nonexistent/fake_mcp", "trust": true}}}"#)
        let replayed = try await shell.run(["--replay", tape] + arguments)
        #expect(replayed.stdout == expectedOut)
        #expect(replayed.stderr == #"tool echo {"text":"a"} -> {"content":"echo: a"}"# + "\n")
        #expect(replayed.status == 0)
    }

    /// MCP calls are recorded as `tool` lines naming the server; the replay answers them
    /// without starting it (its command no longer exists).
    @Test func aTapeReplaysWithoutTheServer() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            Self.calls(
                #"{"id": "c1", "name": "echo", "args": {"text": "a"}}, {"id": "c2", "name": "fail", "args": {}}"#
            ),
            Self.text("Done."),
        ])
        let tape = shell.home.appendingPathComponent("mcp.tape").path
        let recorded = try await shell.run([
            "--record", tape, "-c", "mcp add --trust fake -- \(Self.fakeServer)", "-c", "ask go",
        ])
        #expect(recorded.stdout == "Done.\n")
        let lines = (shell.read("mcp.tape") ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(
            Array(lines[2...3]) == [
                #"{"tool":{"name":"echo","args":{"text":"a"},"server":"fake","result":{"content":"echo: a"}}}"#,
                #"{"tool":{"name":"fail","args":{},"server":"fake","error":"it failed on purpose"}}"#,
            ])
        shell.server.stop()
        try shell.write(
            "mcp.json", #"{"mcpServers": {"fake": {"command": "/nonexistent/fake_mcp", "trust": true}}}"#)
        let replayed = try await shell.run(["--replay", tape, "-c", "tools", "-c", "ask go"])
        #expect(
            replayed.stdout == """
                \(Self.fakeTools)
                Done.

                """)
        #expect(
            replayed.stderr == """
                tool echo {"text":"a"} -> {"content":"echo: a"}
                tool fail {} -> {"error":"it failed on purpose"}

                """)
        #expect(replayed.status == 0)
    }

    /// The real `mcp-server-time` from PyPI: the model calls `convert_time`, the shell calls the
    /// server, and the server's `structuredContent` is the function response Gemini receives.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: timeServer),
            "skipped: .build/venv/bin/mcp-server-time is missing; scripts/ensure-deps --test installs it"))
    func theRealTimeServerAnswersACall() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            Self.calls(
                #"{"id": "t1", "name": "convert_time", "args": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}}"#
            ),
            Self.text("It is 21:00 in Tokyo."),
        ])
        let before = Self.utcDate()
        let outcome = try await shell.run([
            "-c", "mcp add --trust time -- \(Self.timeServer) --local-timezone UTC", "-c", "tools", "-c",
            "ask Noon UTC in Tokyo?",
        ])
        let after = Self.utcDate()
        #expect(
            outcome.stdout == """
                get_current_time  function  mcp time  Get current time in a specific timezone
                convert_time      function  mcp time  Convert time between timezones
                It is 21:00 in Tokyo.

                """)
        #expect(outcome.status == 0)
        let response = try #require(try await shell.server.requests().last).body["contents"]?[2]?["parts"]?[
            0]?[
                "functionResponse"]
        let expected = [before, after].map { day in
            try? JSONValue(
                parsing: #"""
                    {"id": "t1", "name": "convert_time", "response": {
                      "source": {"timezone": "UTC", "datetime": "\#(day)T12:00:00+00:00", "day_of_week": "\#(Self.weekday(day))", "is_dst": false},
                      "target": {"timezone": "Asia/Tokyo", "datetime": "\#(day)T21:00:00+09:00", "day_of_week": "\#(Self.weekday(day))", "is_dst": false},
                      "time_difference": "+9.0h"}}
                    """#)
        }
        #expect(expected.contains(response))
        #expect(
            outcome.stderr.hasPrefix(
                // The arguments in the order the model wrote them (PRODUCT §6: the turn as returned).
                #"tool convert_time {"source_timezone":"UTC","time":"12:00","target_timezone":"Asia/Tokyo"} -> {"source":"#
            ))
    }

    // MARK: - Helpers

    static func utcDate() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    static func weekday(_ day: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let date = formatter.date(from: day) else { return "" }
        formatter.dateFormat = "EEEE"
        return formatter.string(from: date)
    }

    /// The command lines of running processes (not zombies) that contain `text`.
    static func processes(mentioning text: String) throws -> [String] {
        var found: [String] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") where Int(entry) != nil {
            guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
            else { continue }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            if line.contains(text) { found.append(line) }
        }
        return found
    }
}
