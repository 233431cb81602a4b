import Foundation
import SophonTestSupport
import Testing

/// Behaviours found by trying the shell as a new user, each held by the real binary.
@Suite(.childSlots) struct ShellFixesTests {
    @Test func keySetInAScriptReadFromStdinTakesTheNextLineAndNeverShowsIt() async throws {
        let outcome = try await SophonProcess.run(
            [], stdin: "key set\nAIzaSyFROMSTDIN1234\nkey show\n", environment: ["GEMINI_API_KEY": ""])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.hasPrefix("••••1234 (from file "))
        #expect(!outcome.stdout.contains("FROMSTDIN"))
    }

    @Test func keySetWithAValueIsRefused() async throws {
        let outcome = try await SophonProcess.run(["-c", "key set AIzaSyVALUE"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("-c:1:1: error: key set: takes no value (it would land in history)"))
    }

    /// The refused value is not shown either: `--echo` and `--json`'s `command` mask it.
    @Test func aRefusedKeySetValueIsMaskedInTheEchoAndTheJSON() async throws {
        let echoed = try await SophonProcess.run(["--echo", "-c", "key set AIzaSyFAKEFAKEFAKE1234567"])
        #expect(echoed.stdout == "sophon> key set ••••4567\n")
        let json = try await SophonProcess.run(["--json", "-c", "key set AIzaSyFAKEFAKEFAKE1234567"])
        #expect(json.stdout.hasPrefix(#"{"command":"key set ••••4567","ok":false,"#))
        #expect(!(echoed.stdout + echoed.stderr + json.stdout + json.stderr).contains("FAKE"))
    }

    @Test func aFullDiskOnStdoutFailsTheRun() async throws {
        let outcome = try await SophonProcess.run(["-c", "echo hi"], stdoutPath: "/dev/full")
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "sophon: cannot write to standard output: No space left on device\n")
    }

    @Test(arguments: [
        ("save /", "-c:2:1: error: save: '/' is a directory\n"),
        (
            "save /nonexistent-folder/x.sophon",
            "-c:2:1: error: save: the folder '/nonexistent-folder' does not exist\n"
        ),
        (
            "set max-tokens 99999999999",
            "-c:2:1: error: set max-tokens: expected a whole number of tokens in 1...2147483647, got '99999999999'\n"
        ),
        ("attach /", "-c:2:1: error: attach: '/' is a directory\n"),
        // breaker2: it said `cannot replace 'CWD': it is a folder, not a regular file`.
        ("save ''", "-c:2:1: error: save: needs a file name\n"),
    ])
    func refusedWithAClearMessage(command: String, stderr: String) async throws {
        let outcome = try await SophonProcess.run(["-c", "echo x", "-c", command])
        #expect(outcome == .init(stdout: "x\n", stderr: stderr, status: 1))
    }

    @Test func validateTakesJSONAsTyped() async throws {
        let outcome = try await SophonProcess.run([
            "-c", "schema { a: integer }", "-c", #"validate {"a": 1}"#, "-c", #"validate {"a": "x"}"#,
        ])
        #expect(outcome.stdout == "valid\n")
        #expect(
            outcome.stderr
                == "$.a: expected integer, got string \"x\"\n-c:3:1: error: validate: 1 violation\n")
        #expect(outcome.status == 1)
    }

    @Test func aBadBaseURLDoesNotStopOfflineCommands() async throws {
        let outcome = try await SophonProcess.run(
            ["-c", "echo ok", "-c", "ask hi"],
            environment: ["SOPHON_GEMINI_BASE_URL": "bad", "GEMINI_API_KEY": "k"])
        #expect(outcome.stdout == "ok\n")
        #expect(
            outcome.stderr
                == "-c:2:1: error: SOPHON_GEMINI_BASE_URL 'bad' is not scheme://host[:port][/prefix]\n")
        #expect(outcome.status == 1)
    }
}
