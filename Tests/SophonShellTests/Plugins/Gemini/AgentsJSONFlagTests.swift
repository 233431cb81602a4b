import Foundation
import SophonTestSupport
import Testing

/// `agents`, `agent` and `cache` take `--json` among their own words, as every new command does
/// (PRODUCT Part 3), and `agents` refuses a word it does not take instead of ignoring it.
@Suite(.childSlots) struct AgentsJSONFlagTests {
    @Test func agentsJSONPrintsWhatSophonJSONPrints() async throws {
        let flag = try await SophonProcess.run(["-c", "agents --json"])
        #expect(flag.status == 0, "\(flag.stderr)")
        #expect(flag.stdout == #"{"command":"agents --json","ok":true,"result":{"jobs":[]}}"# + "\n")
        let global = try await SophonProcess.run(["--json", "-c", "agents"])
        #expect(global.stdout == #"{"command":"agents","ok":true,"result":{"jobs":[]}}"# + "\n")
    }

    @Test func agentsRefusesAWordItDoesNotTake() async throws {
        let outcome = try await SophonProcess.run(["-c", "agents everything"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "-c:1:1: error: usage: agents [--json]\n")
    }

    @Test(arguments: ["agent --json status", "cache list --json"])
    func theFlagIsTakenOutBeforeTheCommandReadsItsWords(command: String) async throws {
        // No server answers: the command gets as far as sending, as JSON (nothing was refused
        // as an unknown option or a usage error).
        let outcome = try await SophonProcess.run(
            ["-c", command + (command.hasPrefix("agent ") ? " v1_x" : "")],
            environment: ["GEMINI_API_KEY": "test-key"])
        #expect(outcome.status == 1)
        let reply = try #require(outcome.stdout.split(separator: "\n").first.map(String.init))
        #expect(reply.hasPrefix(#"{"command":""#))
        #expect(reply.contains(#""ok":false,"error":{"kind":"transport""#))
    }
}
