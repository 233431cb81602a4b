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

    /// A run that evaluated expectations ends with its tally, also when Ctrl-C ends it
    /// (PRODUCT.md §5 "Output"): after the interrupted command's object under `--json`.
    @Test(arguments: [
        (
            ["--json"],
            #"""
            {"command":"expect 1 == 1","ok":true}
            {"command":"ask --no-schema hi","ok":false,"error":{"kind":"interrupted","message":"interrupted"}}
            {"summary":{"passed":1,"failed":0}}

            """#
        ),
        ([], "1 passed, 0 failed\n"),
        (["-c", "set output raw"], "1 passed, 0 failed\n"),
    ])
    func anInterruptedRunStillPrintsItsTally(flags: [String], expected: String) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "stall", "seconds": 600}"#])
        let running = try shell.start(
            flags + ["--verbose", "-c", "expect 1 == 1", "-c", "ask --no-schema hi", "-c", "echo never"])
        #expect(await running.waitForStderr("-> POST /v1beta/models/"))
        kill(running.process.processIdentifier, SIGINT)
        let outcome = await running.finish()
        #expect(outcome.status == 130)
        #expect(outcome.stdout == expected)
    }

    /// `ask --json` under a plain run: the tally keeps the run's format.
    @Test func aCommandsOwnJSONFlagLeavesTheTallyPlain() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "stall", "seconds": 600}"#])
        let running = try shell.start(["--verbose", "-c", "expect 1 == 2", "-c", "ask --json --no-schema hi"])
        #expect(await running.waitForStderr("-> POST /v1beta/models/"))
        kill(running.process.processIdentifier, SIGINT)
        let outcome = await running.finish()
        #expect(outcome.status == 130)
        #expect(
            outcome.stdout == """
                {"command":"ask --json --no-schema hi","ok":false,"error":{"kind":"interrupted","message":"interrupted"}}
                0 passed, 1 failed

                """)
    }
}
