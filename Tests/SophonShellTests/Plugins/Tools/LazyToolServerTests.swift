import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Tools cost nothing until used (issue 25 point 8; docs/commands.md, "Tools"; docs/mcp.md):
/// `tool-mode none` sends no function and streams; plugins and MCP servers start on first need
/// and stay up; a disabled MCP server is kept but never starts; a discovered plugin's tools are
/// offered before any of its commands runs; `tool show` shows served tools. The real binary
/// against scripts/fake_gemini.py, with scripts/fake_mcp.py and a plugin that both write
/// `start` to a marker file when they start.
@Suite(.childSlots) struct LazyToolServerTests {
    static let stream = "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
    static let generate = "/v1beta/models/gemini-3.8-flash:generateContent"

    /// A plugin serving one tool, `shout {text}` -> `{"loud": TEXT in capitals}`, and no
    /// command; it appends `start` to MARKER when it starts.
    static func plugin(marker: String) -> String {
        #"""
        #!/usr/bin/env python3
        import json, sys
        with open("\#(marker)", "a") as handle:
            handle.write("start\n")
        tools = [{"name": "shout", "description": "Shout a text",
                  "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                                 "required": ["text"]}}]
        def send(message):
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "hello":
                send({"type": "hello", "id": message["id"], "protocol": 1, "name": "shouter",
                      "commands": [], "tools": tools})
            elif message["type"] == "tool":
                send({"type": "result", "id": message["id"],
                      "result": {"loud": message["args"]["text"].upper()}})

        """#
    }

    /// The declarations scripts/fake_mcp.py's tools are sent as, by name, in its order.
    static let mcpNames = ["echo", "lines", "add", "fail", "crash", "hang", "garbage"]

    /// Installs the plugin in the plugins folder (discovered, never loaded) and, unless
    /// `mcp` is false, saves scripts/fake_mcp.py in `mcp.json` as the trusted server `fake`.
    /// - Returns: the markers of the plugin and of the MCP server.
    static func install(_ shell: GeminiShell, mcp: Bool = true, disabled: Bool = false) throws
        -> (plugin: String, mcp: String)
    {
        let markers = (
            plugin: shell.home.appendingPathComponent("plugin.log").path,
            mcp: shell.home.appendingPathComponent("mcp.log").path
        )
        let folder = shell.home.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("sophon-plugin-shouter").path
        try Data(plugin(marker: markers.plugin).utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        if mcp {
            let off = disabled ? #", "disabled": true"# : ""
            try shell.write(
                "mcp.json",
                #"{"mcpServers": {"fake": {"type": "stdio", "command": "\#(MCPShellToolTests.fakeServer)", "#
                    + #""args": ["--log", "\#(markers.mcp)"], "trust": true\#(off)}}}"#)
        }
        return markers
    }

    /// How many times the marker file says its process started (0: no file).
    static func starts(_ marker: String) -> Int {
        let text = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0 == "start" }.count
    }

    /// The names of the function declarations a request body sends.
    static func declared(_ body: JSONValue) -> [String] {
        guard case .array(let items)? = body["tools"]?[0]?["functionDeclarations"] else { return [] }
        return items.compactMap { $0["name"]?.stringValue }
    }

    static func text(_ text: String) -> String { #"{"kind": "generate", "text": "\#(text)"}"# }

    /// (a) Under `tool-mode none` an `ask` sends neither `tools` nor `toolConfig` (a declared
    /// function included), streams, and starts no plugin and no MCP server.
    @Test func toolModeNoneSendsNoToolsStreamsAndStartsNothing() async throws {
        let shell = try await GeminiShell()
        let markers = try Self.install(shell)
        try await shell.server.script([Self.text("Plain answer.")])
        let outcome = try await shell.run([
            "-c", "tool f { a: string }", "-c", "set tool-mode none", "-c", "ask hi",
        ])
        #expect(outcome.stdout == "Plain answer.\n")
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.map(\.path) == [Self.stream])
        #expect(
            requests.first?.body
                == (try JSONValue(parsing: #"{"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}"#)))
        #expect(Self.starts(markers.plugin) == 0)
        #expect(Self.starts(markers.mcp) == 0)
    }

    /// (b) A saved server that is never needed never starts; the first turn that offers
    /// functions starts the plugins and servers, which then stay up (one start for three
    /// asks), and every such turn sends their declarations.
    @Test func serversStartOnFirstNeedAndStayUp() async throws {
        let shell = try await GeminiShell()
        let markers = try Self.install(shell)
        try await shell.server.script([Self.text("A."), Self.text("B."), Self.text("C.")])
        let outcome = try await shell.run([
            "-c", "set tool-mode none", "-c", "ask a", "-c", "set tool-mode auto", "-c", "ask b", "-c",
            "ask c",
        ])
        #expect(outcome.stdout == "A.\nB.\nC.\n")
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.map(\.path) == [Self.stream, Self.generate, Self.generate])
        #expect(
            requests.map { Self.declared($0.body) } == [
                [], ["shout"] + Self.mcpNames, ["shout"] + Self.mcpNames,
            ])
        #expect(
            requests.map { $0.body["toolConfig"] } == [nil, .object(toolConfigAuto), .object(toolConfigAuto)])
        #expect(Self.starts(markers.plugin) == 1)
        #expect(Self.starts(markers.mcp) == 1)
        // A run that needs no tool starts nothing.
        let quiet = try await shell.run(["-c", "show tool-mode", "-c", "echo done"])
        #expect(quiet.stdout == "auto\ndone\n")
        #expect(Self.starts(markers.plugin) == 1)
        #expect(Self.starts(markers.mcp) == 1)
    }

    /// `{"functionCallingConfig": {"mode": "AUTO"}}`'s members.
    let toolConfigAuto = [JSONMember("functionCallingConfig", .object([JSONMember("mode", .string("AUTO"))]))]

    /// (c) `mcp disable NAME` keeps the server in `mcp.json` with `"disabled": true` (other
    /// members kept), stops it, and it never starts again (a new run included) until `mcp
    /// enable NAME`; `mcp list` shows it `disabled`; an unknown name is an error.
    @Test func aDisabledServerIsKeptButNeverStarts() async throws {
        let shell = try await GeminiShell()
        let markers = try Self.install(shell, mcp: true)
        let fake = MCPShellToolTests.fakeServer
        try await shell.server.script([Self.text("A."), Self.text("B."), Self.text("C.")])
        let first = try await shell.run([
            "-c", "tools", "-c", "mcp disable fake", "-c", "mcp list", "-c", "ask a", "-c",
            "mcp disable nope",
            "-c", "mcp enable nope",
        ])
        let shout = "shout    function  plugin shouter  Shout a text"
        #expect(
            first.stdout == """
                \(shout)
                \(MCPShellToolTests.fakeTools)
                fake  disabled  -  trusted  \(fake) --log \(markers.mcp)
                A.

                """)
        #expect(
            first.stderr == """
                -c:5:1: error: mcp disable: no MCP server named 'nope' (see 'mcp list')
                -c:6:1: error: mcp enable: no MCP server named 'nope' (see 'mcp list')

                """)
        #expect(first.status == 1)
        #expect(Self.starts(markers.mcp) == 1)
        let saved = { (disabled: Bool) in
            try JSONValue(
                parsing: #"{"mcpServers": {"fake": {"type": "stdio", "command": "\#(fake)", "#
                    + #""args": ["--log", "\#(markers.mcp)"], "trust": true\#(disabled ? #", "disabled": true"# : "")}}}"#
            )
        }
        #expect(try JSONValue(parsing: shell.read("mcp.json") ?? "") == saved(true))
        // A new run reads it disabled: not started, not offered.
        let second = try await shell.run(["-c", "ask b", "-c", "mcp enable fake", "-c", "ask c"])
        #expect(second.stdout == "B.\nC.\n")
        #expect(second.stderr == "")
        #expect(try JSONValue(parsing: shell.read("mcp.json") ?? "") == saved(false))
        // One request a run's ask: the plugin's tool always, the server's only once enabled.
        let requests = try await shell.server.requests()
        #expect(requests.map(\.path) == [Self.generate, Self.generate, Self.generate])
        #expect(requests.map { Self.declared($0.body) } == [["shout"], ["shout"], ["shout"] + Self.mcpNames])
        #expect(Self.starts(markers.mcp) == 2)
    }

    /// (d) A discovered plugin none of whose commands ran offers its tools on the first turn,
    /// and its call is served.
    @Test func aDiscoveredPluginsToolsAreOfferedBeforeItsCommandsRun() async throws {
        let shell = try await GeminiShell()
        let markers = try Self.install(shell, mcp: false)
        try await shell.server.script([
            #"{"kind": "generate", "functionCalls": [{"id": "s1", "name": "shout", "args": {"text": "hi"}}]}"#,
            Self.text("They said HI."),
        ])
        let outcome = try await shell.run(["--allow-tools", "-c", "ask go"])
        #expect(outcome.stdout == "They said HI.\n")
        #expect(outcome.stderr == #"tool shout {"text":"hi"} -> {"loud":"HI"}"# + "\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.count == 2)
        #expect(
            requests.first?.body["tools"]
                == (try JSONValue(
                    parsing: #"""
                        [{"functionDeclarations": [{"name": "shout", "description": "Shout a text",
                          "parameters": {"type": "OBJECT", "properties": {"text": {"type": "STRING"}},
                          "required": ["text"], "propertyOrdering": ["text"]}}]}]
                        """#)))
        #expect(
            requests.last?.body["contents"]?[2]
                == (try JSONValue(
                    parsing: #"""
                        {"role": "user", "parts": [{"functionResponse": {"id": "s1", "name": "shout",
                          "response": {"loud": "HI"}}}]}
                        """#)))
        #expect(Self.starts(markers.plugin) == 1)
    }

    /// (e) `tool show NAME` shows a plugin's and an MCP server's tool as it is sent; an unknown
    /// name lists the served ones.
    @Test func toolShowShowsServedTools() async throws {
        let shell = try await GeminiShell()
        _ = try Self.install(shell)
        let outcome = try await shell.run([
            "-c", "tool show shout", "-c", "tool show add", "-c", "tool show nope",
        ])
        #expect(
            outcome.stdout == """
                {
                  "name": "shout",
                  "description": "Shout a text",
                  "parameters": {
                    "type": "OBJECT",
                    "properties": {
                      "text": {
                        "type": "STRING"
                      }
                    },
                    "required": [
                      "text"
                    ],
                    "propertyOrdering": [
                      "text"
                    ]
                  }
                }
                {
                  "name": "add",
                  "description": "Add two integers",
                  "parameters": {
                    "type": "OBJECT",
                    "properties": {
                      "a": {
                        "type": "INTEGER"
                      },
                      "b": {
                        "type": "INTEGER"
                      }
                    },
                    "required": [
                      "a",
                      "b"
                    ],
                    "propertyOrdering": [
                      "a",
                      "b"
                    ]
                  }
                }

                """)
        #expect(
            outcome.stderr
                == "-c:3:1: error: tool show: no tool named 'nope' (none is declared; served: shout, "
                + Self.mcpNames.joined(separator: ", ") + ")\n")
        #expect(outcome.status == 1)
    }
}
