import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Faults of plugin-served tools over HTTP (docs/plugin-protocol.md, "Tools"): a crash, a hang
/// past `tool-timeout`, garbage and an error reply each fail that call only: the model gets
/// `{"error": ...}`, stderr says why, and the shell lives on. Also trust (`plugin load
/// --trust`) and the replay of a served call without the plugin.
@Suite(.childSlots) struct ServedToolFaultTests {
    /// A plugin whose tools misbehave on purpose: `crash` exits with status 3, `hang` never
    /// answers, `garbage` writes a line that is not JSON, `fail` answers with an error, `ok`
    /// answers `{"ok": true}` (and says on stderr how many calls this process served).
    static let faultyPlugin = #"""
        #!/usr/bin/env python3
        import json, sys, time
        tools = [{"name": n, "description": "fault " + n,
                  "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}
                 for n in ["crash", "hang", "garbage", "fail", "ok"]]
        served = 0
        def send(message):
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "hello":
                send({"type": "hello", "id": message["id"], "protocol": 1, "name": "faulty",
                      "commands": [], "tools": tools})
            elif message["type"] == "tool":
                name = message["name"]
                if name == "crash":
                    sys.exit(3)
                elif name == "hang":
                    time.sleep(600)
                elif name == "garbage":
                    sys.stdout.write("this is not json\n")
                    sys.stdout.flush()
                elif name == "fail":
                    send({"type": "error", "id": message["id"], "message": "the disk is full"})
                else:
                    served += 1
                    sys.stderr.write("served %d\n" % served)
                    sys.stderr.flush()
                    send({"type": "result", "id": message["id"], "result": {"ok": True}})

        """#

    static func call(_ name: String) -> String {
        #"{"kind": "generate", "functionCalls": [{"id": "c-\#(name)", "name": "\#(name)", "args": {"n": 1}}]}"#
    }

    static func text(_ text: String) -> String { #"{"kind": "generate", "text": "\#(text)"}"# }

    /// Writes the faulty plugin into the shell's home; returns its path.
    static func installPlugin(_ shell: GeminiShell) throws -> String {
        let path = try shell.write("sophon-plugin-faulty", faultyPlugin)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The `response` of the function response in the request's last content.
    static func answer(_ request: FakeGeminiServer.SeenRequest) -> JSONValue? {
        guard case .array(let contents)? = request.body["contents"], let last = contents.last else {
            return nil
        }
        return last["parts"]?[0]?["functionResponse"]?["response"]
    }

    @Test func eachFaultFailsThatCallOnlyAndTheShellLivesOn() async throws {
        let shell = try await GeminiShell()
        let plugin = try Self.installPlugin(shell)
        try await shell.server.script([
            Self.call("crash"), Self.text("A"), Self.call("hang"), Self.text("B"), Self.call("garbage"),
            Self.text("C"), Self.call("fail"), Self.text("D"), Self.call("ok"), Self.text("E"),
        ])
        let outcome = try await shell.run([
            "--allow-tools", "-c", "plugin load \(plugin)", "-c", "set tool-timeout 1s", "-c", "ask crash",
            "-c", "ask hang", "-c", "ask garbage", "-c", "ask fail", "-c", "ask ok",
        ])
        #expect(outcome.stdout == "A\nB\nC\nD\nE\n")
        #expect(
            outcome.stderr == """
                tool crash {"n":1} -> {"error":"plugin 'faulty' exited with status 3 while running 'crash'"}
                tool hang {"n":1} -> {"error":"plugin 'faulty' did not answer 'hang' within 1s; it was stopped"}
                tool garbage {"n":1} -> {"error":"plugin 'faulty' wrote a line that is not JSON: 'this is not json'"}
                tool fail {"n":1} -> {"error":"the disk is full"}
                faulty: served 1
                tool ok {"n":1} -> {"ok":true}

                """)
        #expect(outcome.status == 0)
        let answers = try await shell.server.requests().enumerated().filter { $0.offset % 2 == 1 }.map {
            Self.answer($0.element)
        }
        #expect(
            answers == [
                .object([
                    JSONMember("error", .string("plugin 'faulty' exited with status 3 while running 'crash'"))
                ]),
                .object([
                    JSONMember(
                        "error", .string("plugin 'faulty' did not answer 'hang' within 1s; it was stopped"))
                ]),
                .object([
                    JSONMember(
                        "error", .string("plugin 'faulty' wrote a line that is not JSON: 'this is not json'"))
                ]),
                .object([JSONMember("error", .string("the disk is full"))]),
                .object([JSONMember("ok", .bool(true))]),
            ])
    }

    /// `plugin load --trust`: the plugin's tools run without asking, even without a terminal;
    /// a plugin loaded without it is still declined.
    @Test func aTrustedPluginsToolsRunWithoutATerminal() async throws {
        let shell = try await GeminiShell()
        let plugin = try Self.installPlugin(shell)
        try await shell.server.script([
            Self.call("ok"), Self.text("Trusted."), Self.call("ok"), Self.text("Declined."),
        ])
        let outcome = try await shell.run([
            "-c", "plugin load --trust \(plugin)", "-c", "ask ok", "-c", "plugin load \(plugin)", "-c",
            "ask ok",
        ])
        #expect(outcome.stdout == "Trusted.\nDeclined.\n")
        #expect(
            outcome.stderr == """
                faulty: served 1
                tool ok {"n":1} -> {"ok":true}
                tool ok: declined (no consent without a terminal: run with --allow-tools, or 'set tool-confirm off')
                tool ok {"n":1} -> {"error":"the user declined this call"}

                """)
        #expect(outcome.status == 0)
    }

    /// A tape recorded with a plugin-served tool replays where the plugin is gone: the tape's
    /// `{"tool": ...}` line answers the call and the plugin is not started.
    @Test func aReplayAnswersServedCallsWithoutThePlugin() async throws {
        let shell = try await GeminiShell()
        let plugin = try Self.installPlugin(shell)
        try await shell.server.script([Self.call("ok"), Self.text("Recorded.")])
        let tape = shell.home.appendingPathComponent("served.tape").path
        let arguments = ["-c", "plugin load \(plugin)", "-c", "ask ok", "-c", "expect $last == Recorded."]
        let recorded = try await shell.run(["--allow-tools", "--record", tape] + arguments)
        #expect(recorded.stdout == "Recorded.\n1 passed, 0 failed\n")
        #expect(recorded.status == 0)
        try FileManager.default.removeItem(atPath: plugin)
        shell.server.stop()
        let replayed = try await shell.run(["--replay", tape] + arguments)
        #expect(replayed.stdout == "Recorded.\n1 passed, 0 failed\n")
        // No "faulty: served 1": the plugin never ran.
        #expect(replayed.stderr == #"tool ok {"n":1} -> {"ok":true}"# + "\n")
        #expect(replayed.status == 0)
    }

    /// Declined calls are tape lines too, so the replay answers the later calls in order.
    @Test func aDeclinedCallIsRecordedSoTheReplayStaysInOrder() async throws {
        let shell = try await GeminiShell()
        let plugin = try Self.installPlugin(shell)
        try await shell.server.script([Self.call("ok"), Self.text("No."), Self.call("ok"), Self.text("Yes.")])
        let tape = shell.home.appendingPathComponent("declined.tape").path
        let arguments = [
            "-c", "plugin load \(plugin)", "-c", "ask ok", "-c", "set tool-confirm off", "-c", "ask ok",
        ]
        let recorded = try await shell.run(["--record", tape] + arguments)
        #expect(recorded.stdout == "No.\nYes.\n")
        let tools = (shell.read("declined.tape") ?? "").split(separator: "\n").filter {
            $0.hasPrefix(#"{"tool""#)
        }
        #expect(
            tools == [
                #"{"tool":{"name":"ok","args":{"n":1},"server":"faulty","error":"the user declined this call"}}"#,
                #"{"tool":{"name":"ok","args":{"n":1},"server":"faulty","result":{"ok":true}}}"#,
            ])
        shell.server.stop()
        let replayed = try await shell.run(["--replay", tape] + arguments)
        #expect(replayed.stdout == "No.\nYes.\n")
        #expect(
            replayed.stderr == """
                tool ok {"n":1} -> {"error":"the user declined this call"}
                tool ok {"n":1} -> {"ok":true}

                """)
        #expect(replayed.status == 0)
    }
}
