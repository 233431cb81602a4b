import Foundation
import SophonTestSupport
import Testing

/// `agents`, `agent`, `cache`, `research`, `compare`, `ask`, `chat` and `tokens` take `--json`
/// among their own words, as every new command does (PRODUCT Part 3; "`--dry-run` and `--json`
/// go right after the command word, as for `ask`"), and `agents` refuses a word it does not take
/// instead of ignoring it.
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

    @Test(arguments: ["agent --json status", "cache list --json", "research --json what changed?"])
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

    @Test(arguments: [
        "ask --dry-run hello", "chat --dry-run hello", "tokens --dry-run hello",
        "compare --dry-run --models gemini-2.5-flash,gemini-3.8-flash hello", "research --dry-run hello",
    ])
    func aCommandWithRawTextTakesTheFlagBeforeItsText(line: String) async throws {
        // `compare` and `research` refused it as an unknown option; the rest of the line is the
        // prompt, so the flag goes right after the command word.
        let word = try #require(line.split(separator: " ").first)
        let flagged = "\(word) --json" + line.dropFirst(word.count)
        let flag = try await SophonProcess.run(["-c", flagged], environment: ["GEMINI_API_KEY": "test-key"])
        let global = try await SophonProcess.run(
            ["--json", "-c", line], environment: ["GEMINI_API_KEY": "test-key"])
        #expect(flag.status == 0, "\(flag.stderr)")
        #expect(flag.stderr == "")
        let request = line.hasPrefix("compare") ? #"{"requests":[{"method":"POST""# : #"{"method":"POST""#
        #expect(global.stdout.hasPrefix(#"{"command":"\#(line)","ok":true,"result":\#(request)"#))
        #expect(
            flag.stdout
                == global.stdout.replacingOccurrences(
                    of: #"{"command":"\#(line)""#, with: #"{"command":"\#(flagged)""#))
    }
}
