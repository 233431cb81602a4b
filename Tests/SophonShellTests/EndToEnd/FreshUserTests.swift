import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a new user met trying the tools, MCP, plugin and media commands from the docs alone:
/// the real binary, real files and processes (docs/mcp.md, docs/commands.md).
@Suite(.childSlots) struct FreshUserTests {
    static var fakeMCP: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../scripts/fake_mcp.py").standardizedFileURL.path
    }

    /// A call without a key says so in the session's language, as other Gemini errors do.
    @Test func aMissingKeySpeaksTheSessionsLanguage() async throws {
        let shell = try await GeminiShell(key: nil)
        let outcome = try await shell.run(["-c", "ask hi", "-c", "set language es", "-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "-c:1:1: error: no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or run 'key set'\n"
                        + "-c:3:1: error: No hay ninguna clave de API de Gemini configurada. "
                        + "(GEMINI_API_KEY, GOOGLE_API_KEY, 'key set')\n",
                    status: 1))
    }

    /// `plugin load --trust` without a path is a usage error, not a load of a file named
    /// `--trust`.
    @Test func pluginLoadTrustWithoutAPathIsAUsageError() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "-c", "plugin load --trust"])
        #expect(
            outcome.stdout
                == #"{"command":"plugin load --trust","ok":false,"error":{"kind":"usage","message":"usage: plugin load [--trust] PATH | plugin unload NAME"}}"#
                + "\n")
        #expect(outcome.status == 1)
    }

    /// `tool @FILE` of an empty array (or no `functionDeclarations`) declares nothing: an error
    /// naming the file, not a silent success.
    @Test func aToolFileThatDeclaresNothingIsRefused() async throws {
        let shell = try await GeminiShell()
        _ = try shell.write("none.json", "[]")
        _ = try shell.write("empty.json", #"{"functionDeclarations": []}"#)
        let outcome = try await shell.run(["-c", "tool @none.json", "-c", "tool @empty.json", "-c", "tools"])
        #expect(
            outcome
                == .init(
                    stdout: "(no tools; declare one with 'tool NAME SPEC')\n",
                    stderr:
                        "-c:1:1: error: tool: 'none.json' declares no function\n"
                        + "-c:2:1: error: tool: 'empty.json' declares no function\n",
                    status: 1))
    }

    /// A folder given as an MCP server's command is "not an executable file", not "no such file".
    @Test func mcpAddOfAFolderSaysItIsNotAnExecutable() async throws {
        let shell = try await GeminiShell()
        let folder = shell.home.appendingPathComponent("server.d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outcome = try await shell.run(["-c", "mcp add x -- \(folder.path)"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "-c:1:1: error: mcp add: MCP server 'x' could not start: not an executable file: \(folder.path)\n",
                    status: 1))
        #expect(shell.read("mcp.json") == nil)
    }

    /// An empty `mcp.json` (`touch mcp.json`) holds no servers: no warning, and `mcp add`
    /// writes it.
    @Test func anEmptyMCPConfigHoldsNoServers() async throws {
        let shell = try await GeminiShell()
        try shell.write("mcp.json", " \n")
        let outcome = try await shell.run([
            "-c", "mcp list", "-c", "mcp add --trust fake -- \(Self.fakeMCP)", "-c", "mcp remove fake",
        ])
        #expect(
            outcome.stdout == "(no MCP servers; add one with 'mcp add NAME -- COMMAND')\n")
        #expect(
            outcome.stderr
                == "warning: MCP server 'fake': tool 'bad_schema' is not offered: input schema $.properties.x: "
                + "allOf with several schemas cannot be converted; merge them\n")
        #expect(outcome.status == 0)
        #expect(shell.read("mcp.json") == "{\n  \"mcpServers\": {}\n}\n")
    }

    /// An empty file is refused by `attach` (the API refuses an empty part), and nothing is
    /// attached.
    @Test func attachRefusesAnEmptyFile() async throws {
        let shell = try await GeminiShell()
        let path = try shell.write("empty.txt", "")
        let outcome = try await shell.run(["--json", "-c", "attach \(path)", "-c", "attach"])
        #expect(
            outcome.stdout
                == #"{"command":"attach \#(path)","ok":false,"error":{"kind":"mediaUnreadable","message":"attach: '\#(path)' is empty"}}"#
                + "\n" + #"{"command":"attach","ok":true,"result":"(nothing attached)"}"# + "\n")
        #expect(outcome.status == 1)
    }

    /// `tools` after the last exchange of a replayed tape lists the MCP tools the recorded run
    /// listed (it listed none: the tape had no request left to read them from).
    @Test func toolsAfterTheLastReplayedExchangeListsTheRecordedMCPTools() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "s.sophon", "mcp add --trust u -- \(Self.fakeMCP)\nask go\ntools\n")
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "1", "name": "echo", "args": {"text": "hi"}}]}"#,
            #"{"kind": "generate", "text": "ok"}"#,
        ])
        let expected = """
            ok
            echo     function  mcp u  Echo a text
            lines    function  mcp u  Two text items
            add      function  mcp u  Add two integers
            fail     function  mcp u  Always fails
            crash    function  mcp u  Exits
            hang     function  mcp u  Never answers
            garbage  function  mcp u  Writes garbage

            """
        let recorded = try await shell.run(["--record", "s.tape", "s.sophon"])
        #expect(recorded.stdout == expected)
        #expect(recorded.status == 0)
        try FileManager.default.removeItem(at: shell.home.appendingPathComponent("mcp.json"))
        let replayed = try await shell.run(["--replay", "s.tape", "s.sophon"])
        #expect(
            replayed
                == .init(
                    stdout: expected, stderr: #"tool echo {"text":"hi"} -> {"content":"echo: hi"}"# + "\n",
                    status: 0))
    }

    /// A server whose `tools/call` result is not a `CallToolResult` (here `content` is a string)
    /// fails that call with a message naming the server; the model never gets an empty answer.
    @Test func aResultWithoutAContentArrayFailsTheCall() async throws {
        let shell = try await GeminiShell()
        let server = try shell.write(
            "odd-server",
            """
            #!/usr/bin/env python3
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                answer = {"initialize": {"protocolVersion": "2025-06-18", "capabilities": {}},
                          "tools/list": {"tools": [{"name": "odd"}]},
                          "tools/call": {"content": "not a list"}}.get(m.get("method"))
                if answer is not None:
                    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": answer}), flush=True)

            """)
        #expect(chmod(server, 0o755) == 0)
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "1", "name": "odd", "args": {}}]}"#,
            #"{"kind": "generate", "text": "ok"}"#,
        ])
        let outcome = try await shell.run(["-c", "mcp add --trust o -- \(server)", "-c", "ask go"])
        let message = "MCP server 'o' answered tools/call 'odd' with a result with no 'content' array"
        #expect(
            outcome
                == .init(
                    stdout: "ok\n",
                    stderr: "tool odd {} -> {\"error\":\"\(message)\"}\n", status: 0))
        let sent = try await shell.server.requests().last?.bodyText ?? ""
        #expect(
            sent.contains(#"{"functionResponse":{"id":"1","name":"odd","response":{"error":"\#(message)"}}}"#)
        )
    }

    /// `cat` is not an MCP server: it echoes the `initialize` request, which the shell answers
    /// with -32601, and that error comes back as the answer. A failed handshake is a
    /// `pluginProtocolError` (docs/commands.md, "mcp"), and nothing is saved.
    @Test func catIsRefusedAsAFailedHandshake() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "-c", "mcp add x -- cat"])
        #expect(
            outcome.stdout
                == #"{"command":"mcp add x -- cat","ok":false,"error":{"kind":"pluginProtocolError","message":"mcp add: MCP server 'x' answered initialize with error -32601: method not found: initialize"}}"#
                + "\n")
        #expect(outcome.status == 1)
        #expect(shell.read("mcp.json") == nil)
    }

    /// Runs `sophon arguments` with a sparse file of `megabytes` MiB of zeros as stdin (no
    /// disk used); the old reader read stdin to its end (`< /dev/zero` filled the memory).
    static func runWithZeros(megabytes: Int, _ arguments: [String], shell: GeminiShell) async throws
        -> SophonProcess.Outcome
    {
        let path = shell.home.appendingPathComponent("zeros").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try writer.truncate(atOffset: UInt64(megabytes) * 1024 * 1024)
        try writer.close()
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.arguments = arguments
        process.environment = shell.environment
        process.currentDirectoryURL = shell.home
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        let (stdout, stderr) = await OffPool.run {
            let stdout = output.fileHandleForReading.readAllRetryingInterrupts()
            let stderr = errors.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            return (stdout, stderr)
        }
        watchdog.cancel()
        return .init(
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Standard input is read up to a limit: 256 MiB for `ask`, `chat` and `tokens`, the 64 MiB
    /// of a script file for commands on stdin; past it the run is refused, nothing is sent.
    @Test func standardInputPastItsLimitIsRefused() async throws {
        let shell = try await GeminiShell()
        #expect(
            try await Self.runWithZeros(megabytes: 300, ["ask", "hi"], shell: shell)
                == .init(stdout: "", stderr: "error: stdin: larger than 256 MiB\n", status: 1))
        #expect(
            try await Self.runWithZeros(megabytes: 65, [], shell: shell)
                == .init(stdout: "", stderr: "sophon: '<stdin>' is larger than 67108864 bytes\n", status: 2))
        #expect(try await shell.server.requests().isEmpty)
    }

    /// Blank stdin (`echo | sophon ask`) is no stdin: with no prompt it is the usage error that
    /// empty stdin gives (it was sent, a paid call on a line break); with a prompt, only the
    /// prompt goes.
    @Test func blankStandardInputIsNoInput() async throws {
        let shell = try await GeminiShell()
        #expect(
            try await shell.run(["ask"], stdin: " \n\t\r\n")
                == .init(
                    stdout: "",
                    stderr: "error: usage: ask [--model ID] [--no-schema] [--dry-run] [--json] PROMPT\n",
                    status: 1))
        #expect(try await shell.server.requests().isEmpty)
        let outcome = try await shell.run(["ask", "--dry-run", "hi"], stdin: "\n")
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout.hasSuffix(
                #"""
                  "contents": [
                    {
                      "role": "user",
                      "parts": [
                        {
                          "text": "hi"
                        }
                      ]
                    }
                  ]
                }

                """#))
    }

    /// `extract` from a pipe stops at the same limit (it read a pipe to its end into a mapping
    /// that kept doubling: `extract < /dev/zero` grew without end).
    @Test func extractFromAPipePastTheLimitIsRefused() async throws {
        let shell = try await GeminiShell()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "head -c 270000000 /dev/zero 2>/dev/null | \"$0\" extract", SophonProcess.binary.path,
        ]
        process.environment = shell.environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let watchdog = DispatchWorkItem { [weak process] in process?.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        let stderr = await OffPool.run {
            let stderr = errors.fileHandleForReading.readAllRetryingInterrupts()
            process.waitUntilExit()
            return stderr
        }
        watchdog.cancel()
        #expect(String(decoding: stderr, as: UTF8.self) == "error: stdin: larger than 256 MiB\n")
        #expect(process.terminationStatus == 1)
    }

    /// `--record` onto a folder is refused before the run (it ran, then left its tape in
    /// `FOLDER.partial` beside the folder).
    @Test func recordOntoAFolderIsRefusedBeforeTheRun() async throws {
        let shell = try await GeminiShell()
        let folder = shell.home.appendingPathComponent("tapes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outcome = try await shell.run(["--record", folder.path, "-c", "echo hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "sophon: cannot replace '\(folder.path)': it is a folder, not a regular file\n",
                    status: 2))
        #expect(!FileManager.default.fileExists(atPath: folder.path + ".partial"))
    }

    /// MCP servers and plugins start with no signal blocked (they inherited the concurrency
    /// pool's mask: SIGTERM, SIGINT, SIGALRM, SIGHUP never reached them).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads /proc (Linux)"))
    func childProcessesStartWithNoSignalBlocked() async throws {
        let shell = try await GeminiShell()
        let probe = """
            import json, sys
            mask = [l.split()[1] for l in open("/proc/self/status") if l.startswith("SigBlk:")][0]
            open(sys.argv[1], "w").write(mask)
            for line in sys.stdin:
                m = json.loads(line)
                if m.get("type") == "hello":
                    print(json.dumps({"type": "hello", "id": m["id"], "protocol": 1, "name": "probe", "commands": []}), flush=True)
                answer = {"initialize": {"protocolVersion": "2025-06-18", "capabilities": {}},
                          "tools/list": {"tools": []}}.get(m.get("method"))
                if answer is not None:
                    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": answer}), flush=True)

            """
        let server = try shell.write("probe.py", probe)
        let plugin = try shell.write("sophon-plugin-probe", "#!/bin/sh\nexec python3 \(server) plugin.mask\n")
        #expect(chmod(plugin, 0o755) == 0)
        let outcome = try await shell.run([
            "-c", "mcp add m -- /usr/bin/python3 \(server) mcp.mask", "-c", "plugin load \(plugin)",
        ])
        #expect(outcome == .init(stdout: "", stderr: "", status: 0))
        #expect(shell.read("mcp.mask") == "0000000000000000")
        #expect(shell.read("plugin.mask") == "0000000000000000")
    }

    /// `tool @FILE`: `parameters` the converter refuses (a recursive `$ref`) go as
    /// `parametersJsonSchema` instead of being dropped; both members at once are refused.
    @Test func toolFileParametersAreNeverDroppedSilently() async throws {
        let shell = try await GeminiShell()
        let schema =
            ##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "##
            + ##""$defs": {"x": {"type": "object", "properties": {"n": {"$ref": "#/$defs/x"}}}}}"##
        try shell.write("rec.json", #"{"name": "f", "parameters": "# + schema + "}")
        try shell.write(
            "both.json",
            #"{"name": "g", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}}"#)
        let outcome = try await shell.run([
            "--json", "-c", "tool @rec.json", "-c", "tool @both.json", "-c", "tools",
        ])
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"command":"tool @rec.json","ok":true}"#,
                #"{"command":"tool @both.json","ok":false,"error":{"kind":"schemaError","message":"tool: 'g' has both \"parameters\" and \"parametersJsonSchema\"; give one"}}"#,
                #"{"command":"tools","ok":true,"result":{"tools":[{"name":"f","kind":"function","servedBy":"nobody (tool-reply)","description":""}]}}"#,
            ])
        try await shell.server.script([#"{"kind": "generate", "text": "ok"}"#])
        _ = try await shell.run(["-c", "tool @rec.json", "-c", "ask go"])
        let sent = try await shell.server.requests().last?.body
        let expected = try JSONValue(
            parsing: #"[{"functionDeclarations": [{"name": "f", "parametersJsonSchema": "# + schema + "}]}]")
        #expect(sent?["tools"] == expected)
    }

    /// A `tools/list` item without a `name` is listed as not offered, with a warning, instead
    /// of vanishing without a word.
    @Test func aNamelessToolIsListedAsNotOffered() async throws {
        let shell = try await GeminiShell()
        let server = try shell.write(
            "nameless-server",
            """
            #!/usr/bin/env python3
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                answer = {"initialize": {"protocolVersion": "2025-06-18", "capabilities": {}},
                          "tools/list": {"tools": [{"name": "good"}, {"title": "no name"}]}}.get(m.get("method"))
                if answer is not None:
                    print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": answer}), flush=True)

            """)
        #expect(chmod(server, 0o755) == 0)
        let outcome = try await shell.run(["-c", "mcp add n -- \(server)", "-c", "mcp list"])
        #expect(
            outcome
                == .init(
                    stdout: """
                        n  running  1 tool  untrusted  \(server)
                          not offered: (tool 2 of tools/list): no "name" string

                        """,
                    stderr:
                        "warning: MCP server 'n': tool '(tool 2 of tools/list)' is not offered: no \"name\" string\n",
                    status: 0))
    }

    /// `tool-reply NAME` without the JSON says the answer is missing (it read NAME as JSON:
    /// "expected a JSON value but found 'get'"), and the call stays pending.
    @Test func toolReplyWithANameAloneSaysTheAnswerIsMissing() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "1", "name": "get_weather", "args": {"city": "Oslo"}}]}"#,
            #"{"kind": "generate", "text": "Cold."}"#,
        ])
        let outcome = try await shell.run([
            "-c", "tool get_weather { city: string }", "-c", "ask Weather?", "-c", "tool-reply get_weather",
            "-c", #"tool-reply get_weather {"temp_c": -3}"#,
        ])
        #expect(outcome.stdout.hasSuffix("Cold.\n"))
        #expect(
            outcome.stderr
                == "-c:3:1: error: tool-reply: the answer to 'get_weather' is missing: tool-reply get_weather JSON\n"
        )
        #expect(outcome.status == 1)
    }

    /// With tools declared, `ask --dry-run` needs no key (it failed with `missingAPIKey`), and
    /// every round sends the safety settings and the generation settings fitted to the model,
    /// as a plain `ask` does (the safety settings were left out, penalties sent to 2.5 Flash).
    @Test func askWithToolsSendsTheSessionSettingsAndDryRunsWithoutAKey() async throws {
        let shell = try await GeminiShell(key: nil)
        let settings = [
            "-c", "tool f { a: string }", "-c", "set safety HARM_CATEGORY_HARASSMENT=BLOCK_ONLY_HIGH", "-c",
            "set model gemini-2.5-flash", "-c", "set presence-penalty 0.5", "-c", "set thinking low",
        ]
        let dry = try await shell.run(settings + ["-c", "ask --dry-run hi"])
        #expect(dry.status == 0)
        let body = String(dry.stdout.drop { $0 != "{" })
        #expect(dry.stdout.hasPrefix("POST /v1beta/models/gemini-2.5-flash:generateContent\n{"))
        let expected = try JSONValue(
            parsing: #"""
                {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                 "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT",
                   "properties": {"a": {"type": "STRING"}}, "required": ["a"], "propertyOrdering": ["a"]}}]}],
                 "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}],
                 "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}
                """#)
        #expect(try JSONValue(parsing: body) == expected)
        #expect(
            dry.stderr == """
                note: gemini-2.5-flash takes a thinking budget, not a level: thinking low sent as budget 1024
                note: gemini-2.5-flash does not take presence-penalty (penalties are not enabled for it): not sent

                """)
        shell.key = "test-key"
        try await shell.server.script([#"{"kind": "generate", "text": "ok"}"#])
        let live = try await shell.run(settings + ["-c", "ask hi"])
        #expect(live.stdout == "ok\n")
        #expect(try await shell.server.requests().last?.body == expected)
    }

    /// A replayed failed call says why on stderr, as the recorded run did (its `-> {"error"}`
    /// line with the server's fault); the rest is as recorded.
    @Test func aReplayedFailedCallSaysWhyAsTheRecordedRunDid() async throws {
        let shell = try await GeminiShell()
        try shell.write("s.sophon", "mcp add --trust u -- \(Self.fakeMCP)\nask go\n")
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "1", "name": "crash", "args": {}}, {"id": "2", "name": "add", "args": {"a": "x"}}]}"#,
            #"{"kind": "generate", "text": "ok"}"#,
        ])
        let crash = "MCP server 'u' exited with status 3 during tools/call 'crash' (its stderr: 'boom')"
        let toolLines = """
            tool crash {} -> {"error":"\(crash)"}
            tool add {"a":"x"} -> {"error":"invalid arguments: $: missing required property \\"b\\"; $.a: expected integer, got string \\"x\\""}

            """
        let recorded = try await shell.run(["--record", "s.tape", "s.sophon"])
        #expect(recorded.stdout == "ok\n")
        #expect(recorded.stderr.hasSuffix(toolLines))
        #expect(recorded.status == 0)
        let replayed = try await shell.run(["--replay", "s.tape", "s.sophon"])
        #expect(replayed == .init(stdout: "ok\n", stderr: toolLines, status: 0))
    }
}
