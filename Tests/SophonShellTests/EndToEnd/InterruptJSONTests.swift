import Foundation
import SophonTestSupport
import Testing

/// Ctrl-C under `--json` in a script: the interrupted command still prints its one JSON object,
/// `{"command", "ok": false, "error": {"kind": "interrupted", ...}}`, and the run ends with 130
/// (docs/commands.md, "JSON output").
@Suite(.childSlots) struct InterruptJSONTests {
    @Test func theInterruptedCommandPrintsItsObject() async throws {
        let shell = try await GeminiShell()
        // A reply that never comes: the command is in flight when the SIGINT arrives.
        try await shell.server.script([#"{"fault": "stall", "seconds": 600}"#])
        let running = try shell.start([
            "--json", "--verbose", "-c", "let a = 1", "-c", "ask --no-schema hi", "-c", "echo never",
        ])
        #expect(await running.waitForStderr("-> POST /v1beta/models/"))
        kill(running.process.processIdentifier, SIGINT)
        let outcome = await running.finish()
        #expect(outcome.status == 130)
        #expect(
            outcome.stdout == """
                {"command":"let a = 1","ok":true}
                {"command":"ask --no-schema hi","ok":false,"error":{"kind":"interrupted","message":"interrupted"}}

                """)
    }

    @Test func withoutJSONNothingMoreIsPrinted() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "stall", "seconds": 600}"#])
        let running = try shell.start(["--verbose", "-c", "echo before", "-c", "ask --no-schema hi"])
        #expect(await running.waitForStderr("-> POST /v1beta/models/"))
        kill(running.process.processIdentifier, SIGINT)
        let outcome = await running.finish()
        #expect(outcome.status == 130)
        #expect(outcome.stdout == "before\n")
    }
}
