import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Every failure of a built-in command's subcommand starts with `COMMAND SUBCOMMAND: `, by the
/// one rule of a command's error prefix (`CommandFailure.prefixed`, applied by the runtime),
/// its kind and exit status kept (docs/language.md).
@Suite(.childSlots) struct SubcommandFailurePrefixTests {
    /// A command line and the stderr line it fails with (after `error: `).
    static let rows: [(command: String, message: String)] = [
        ("cache show nope", "cache show: no cache named 'nope'"),
        ("cache delete nope", "cache delete: no cache named 'nope'"),
        ("cache extend nope --ttl 2h", "cache extend: no cache named 'nope'"),
        ("agent status nope", "agent status: no research job 'nope' (see 'agents')"),
        ("agent wait nope", "agent wait: no research job 'nope' (see 'agents')"),
        ("agent cancel nope", "agent cancel: no research job 'nope' (see 'agents')"),
        ("agent show nope", "agent show: no research job 'nope' (see 'agents')"),
        (
            "files show nope",
            "files show: File nope does not exist, has expired or is not yours: HTTP 403 PERMISSION_DENIED: "
                + "You do not have permission to access the File nope or it may not exist."
        ),
        (
            "files delete nope",
            "files delete: File nope does not exist, has expired or is not yours: HTTP 403 PERMISSION_DENIED: "
                + "You do not have permission to access the File nope or it may not exist."
        ),
        ("batch status nope", "batch status: no job named 'nope'"),
        ("batch cancel nope", "batch cancel: no job named 'nope'"),
        (
            "batch submit missing.jsonl",
            "batch submit: cannot read 'missing.jsonl': no such file or directory"
        ),
        ("collections delete nope", "collections delete: no collection 'nope'"),
        ("logs show 99", "logs show: no log entry 99"),
        ("logs search", "logs search: needs TEXT"),
        ("mcp remove nope", "mcp remove: no MCP server named 'nope' (see 'mcp list')"),
        ("mcp disable nope", "mcp disable: no MCP server named 'nope' (see 'mcp list')"),
        ("plugin unload nope", "plugin unload: no external plugin named 'nope' (see 'plugins')"),
        ("plugin load missing", "plugin load: no such file: missing"),
        ("tool show nope", "tool show: no tool named 'nope' (none is declared)"),
        ("schema show", "schema show: no schema is set"),
        ("prompt save /nonexist/x.prompt", "prompt save: the folder '/nonexist' does not exist"),
        (
            "key set AIzaSyVALUE",
            "key set: takes no value (it would land in history); run 'key set' and "
                + "paste the key at the prompt, or pipe it: sophon key set < key.txt"
        ),
    ]

    @Test func eachSubcommandFailureNamesTheCommandAndTheSubcommand() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(Self.rows.flatMap { ["-c", $0.command] })
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr.split(separator: "\n").map(String.init)
                == Self.rows.indices.map { "-c:\($0 + 1):1: error: \(Self.rows[$0].message)" })
        #expect(outcome.status == 1)
    }

    /// The kind stays; only the message names the subcommand. A usage line stays a usage line,
    /// and a form without a subcommand names the command alone.
    @Test func theKindAndTheUsageLineStay() async throws {
        let shell = try await GeminiShell()
        let json = try await shell.run(["--json", "cache", "show", "nope"])
        #expect(
            json
                == .init(
                    stdout:
                        #"{"command":"cache show nope","ok":false,"error":{"kind":"cacheNotFound","message":"cache show: no cache named 'nope'"}}"#
                        + "\n",
                    stderr: "error: cache show: no cache named 'nope'\n", status: 1))
        let agent = try await shell.run(["--json", "agent", "cancel", "nope"])
        #expect(agent.status == 1)
        #expect(
            agent.stdout
                == #"{"command":"agent cancel nope","ok":false,"error":{"kind":"agentNotFound","message":"agent cancel: no research job 'nope' (see 'agents')"}}"#
                + "\n")
        let usage = try await shell.run(["-c", "agent status", "-c", "prompt missing.prompt"])
        #expect(
            usage.stderr == """
                -c:1:1: error: usage: agent status|wait|cancel|show ID [--json]
                -c:2:1: error: prompt: missing.prompt:1:1: cannot open 'missing.prompt': No such file or directory

                """)
    }

    /// A missing key reads the same under every command, as under `ask`.
    @Test func noKeyReadsTheSameUnderEveryCommand() async throws {
        var shell = try await GeminiShell()
        shell.key = nil
        let outcome = try await shell.run(["-c", "batch list", "-c", "cache list", "-c", "ask hi"])
        let line = "error: no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or run 'key set'"
        #expect(outcome.stderr == (1...3).map { "-c:\($0):1: \(line)\n" }.joined())
    }
}
