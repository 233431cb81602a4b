import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 14 (files and secrets, shell behaviour), end to end: the real binary against
/// scripts/fake_gemini.py over HTTP, real files (docs/commands.md, "Files and secrets").
@Suite(.childSlots) struct TrustTests {
    static let hello = #"{"kind": "generate", "text": "hello"}"#

    /// The path the shell names for `name` in the home folder (its current directory).
    static func shown(_ shell: GeminiShell, _ name: String) -> String {
        URL(fileURLWithPath: shell.home.path).resolvingSymlinksInPath().appendingPathComponent(name).path
    }

    // MARK: 1. one writer: symlinks followed, FIFOs and folders refused

    @Test func saveThroughASymlinkReplacesTheTargetAndKeepsTheLink() async throws {
        let shell = try await GeminiShell()
        try shell.write("real.sophon", "old\n")
        let link = shell.home.appendingPathComponent("link.sophon").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sophon")
        let outcome = try await shell.run(["-c", "let a = 1", "-c", "save link.sophon"])
        #expect(outcome == .init(stdout: "", stderr: "", status: 0))
        #expect(shell.read("real.sophon") == "let a = 1\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.sophon")
    }

    @Test func saveRefusesAFIFOAndAFolderAndLeavesThemAlone() async throws {
        let shell = try await GeminiShell()
        let fifo = shell.home.appendingPathComponent("fifo.sophon").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let outcome = try await shell.run(["-c", "let a = 1", "-c", "save fifo.sophon"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "-c:2:1: error: save: cannot replace '\(Self.shown(shell, "fifo.sophon"))': it is a FIFO, not a regular file\n",
                    status: 1))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

        let linked = shell.home.appendingPathComponent("linked.sophon").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: "fifo.sophon")
        let throughLink = try await shell.run(["-c", "save linked.sophon"])
        #expect(
            throughLink.stderr
                == "-c:1:1: error: save: cannot replace '\(Self.shown(shell, "fifo.sophon"))': it is a FIFO, not a regular file\n"
        )
        #expect(throughLink.status == 1)
    }

    @Test func setModelSaveFollowsASymlinkedSettingsFile() async throws {
        let shell = try await GeminiShell()
        try shell.write("real-settings.json", "{}\n")
        let link = shell.home.appendingPathComponent("settings.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real-settings.json")
        let outcome = try await shell.run(["-c", "set model gemini-3.6-flash --save"])
        #expect(outcome == .init(stdout: "", stderr: "", status: 0))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real-settings.json")
        #expect(shell.read("real-settings.json") == #"{"model": "gemini-3.6-flash"}"# + "\n")
    }

    @Test func aFIFOInPlaceOfKeysOrSettingsIsRefusedWithoutHanging() async throws {
        let shell = try await GeminiShell(key: nil)
        for name in ["keys.json", "settings.json"] {
            #expect(mkfifo(shell.home.appendingPathComponent(name).path, 0o600) == 0)
        }
        let outcome = try await shell.run([
            "-c", "show model", "-c", "key show", "-c", "set model gemini-3.6-flash --save",
            "-c", "show model",
        ])
        // The failed save leaves the session's model as it was.
        #expect(
            outcome
                == .init(
                    stdout: "gemini-3.8-flash\ngemini-3.8-flash\n",
                    stderr: """
                        warning: settings file '\(shell.home.path)/settings.json' is a FIFO, not a regular file; not reading it
                        -c:2:1: error: key show: cannot read '\(shell.home.path)/keys.json': it is a FIFO, not a regular file
                        -c:3:1: error: set model: cannot save: cannot replace '\(shell.home.path)/settings.json': it is a FIFO, not a regular file

                        """,
                    status: 1))
    }

    // MARK: 2. --record writes TAPE.partial; a failed run keeps an existing tape

    @Test func aFailedRecordingKeepsTheOldTapeAndAGoodOneReplacesIt() async throws {
        let shell = try await GeminiShell()
        try shell.write("my.tape", "old tape\n")
        try await shell.server.script([#"{"fault": "bad_request"}"#])
        let failed = try await shell.run(["--record", "my.tape", "-c", "ask hi"])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.hasSuffix(
                "note: the run failed: my.tape was kept; this run's tape is in my.tape.partial\n"))
        #expect(shell.read("my.tape") == "old tape\n")
        #expect(shell.read("my.tape.partial")?.hasPrefix("{\"sophonTape\":1}\n") == true)

        try await shell.server.script([Self.hello])
        let passed = try await shell.run(["--record", "my.tape", "-c", "ask hi"])
        #expect(passed == .init(stdout: "hello\n", stderr: "", status: 0))
        #expect(shell.read("my.tape.partial") == nil)
        let tape = try #require(shell.read("my.tape"))
        #expect(tape.hasPrefix("{\"sophonTape\":1}\n"))

        let replayed = try await shell.run(["--replay", "my.tape", "-c", "ask hi"])
        #expect(replayed == .init(stdout: "hello\n", stderr: "", status: 0))
    }

    @Test func aFailedRunWithNoEarlierTapeStillLeavesItsTape() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "bad_request"}"#])
        let failed = try await shell.run(["--record", "new.tape", "-c", "ask hi"])
        #expect(failed.status == 1)
        #expect(shell.read("new.tape.partial") == nil)
        #expect(shell.read("new.tape")?.hasPrefix("{\"sophonTape\":1}\n") == true)
    }

    // MARK: 3. keys outside printable ASCII are refused before sending

    @Test func aKeyWithACopiedQuoteIsNeverSent() async throws {
        let shell = try await GeminiShell(key: "test-key\u{201D}")
        let outcome = try await shell.run(["-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "-c:1:1: error: the API key from environment variable GEMINI_API_KEY has a character that is not printable ASCII at position 9 (U+201D); it is not used (check for a copied quote or blank)\n",
                    status: 1))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func keySetRefusesABlankInsideTheKey() async throws {
        let shell = try await GeminiShell(key: nil)
        let outcome = try await shell.run(["key", "set"], stdin: "abc def\n")
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "error: key set: the key has a character that is not printable ASCII at position 4 (a space (U+0020)); it is not used (check for a copied quote or blank)\n",
                    status: 1))
        #expect(shell.read("keys.json") == nil)
    }

    // MARK: 11. let rule 4

    @Test func letWithBrokenJSONIsAnErrorAtItsColumn() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"let a = {"k": 1,}"#, "-c", "let t = '{\"k\": 1,}'", "-c", "echo $t",
        ])
        #expect(
            outcome
                == .init(
                    stdout: "{\"k\": 1,}\n",
                    stderr: """
                        -c:1:1:17: error: the value is not valid JSON: unexpected '}' after ','; to store it as text, quote it: let a = '...'
                        let a = {"k": 1,}
                                        ^

                        """,
                    status: 1))
    }

    // MARK: 12. sophonrc

    @Test func sophonrcErrorsAreLocatedAndChangeNeitherStatusNorTally() async throws {
        let shell = try await GeminiShell()
        try shell.write("sophonrc", "ehco x\nexit 3\nlet a = 1\nquit\n")
        let outcome = try await shell.run(["-c", "echo $a", "-c", "expect $a == 1"])
        #expect(
            outcome
                == .init(
                    stdout: "1\n1 passed, 0 failed\n",
                    stderr: """
                        sophonrc:1: error: unknown command 'ehco' (did you mean 'echo'?)
                        sophonrc:2: error: 'exit' is not allowed in sophonrc (it would end every run)
                        sophonrc:4: error: 'quit' is not allowed in sophonrc (it would end every run)

                        """,
                    status: 0))
    }

    @Test func aFailedExpectationInSophonrcIsNotCounted() async throws {
        let shell = try await GeminiShell()
        try shell.write("sophonrc", "expect 1 == 2\n")
        let outcome = try await shell.run(["-c", "expect 1 == 1"])
        #expect(outcome.stdout == "1 passed, 0 failed\n")
        #expect(outcome.stderr.hasPrefix("sophonrc:1: error: "))
        #expect(outcome.status == 0)
    }

    // MARK: 13. --json changes output only

    @Test(arguments: [false, true])
    func aStreamedAskStreamsWithOrWithoutJSON(json: Bool) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.hello])
        let outcome = try await shell.run((json ? ["--json"] : []) + ["-c", "ask hi"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        if json {
            #expect(outcome.stdout.hasPrefix(#"{"command":"ask hi","ok":true,"result":"hello","#))
        } else {
            #expect(outcome.stdout == "hello\n")
        }
        #expect(
            try await shell.server.paths() == [
                "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
            ])
    }

    @Test func theTourTapeReplaysUnderJSONAsWithout() async throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
        let shell = try await GeminiShell(key: nil)
        for json in [false, true] {
            let outcome = try await shell.run(
                (json ? ["--json"] : []) + [
                    "-X", "--replay", examples.appendingPathComponent("tour.tape").path,
                    examples.appendingPathComponent("tour.sophon").path,
                ])
            #expect(outcome.status == 0)
            #expect(
                outcome.stdout.hasSuffix(
                    json ? "{\"summary\":{\"passed\":8,\"failed\":0}}\n" : "8 passed, 0 failed\n"))
            #expect(!outcome.stdout.contains("\"ok\":false"))
        }
    }

    // MARK: 14. fallback notices, custom models, retry-policy fallback

    @Test func aFallbackThatFailsTooNamesBothModelsAndTheServersWords() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "not_found"}"#, #"{"fault": "not_found"}"#])
        let outcome = try await shell.run(["-c", "set model gemini-3.8-flsh", "-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: """
                        note: 'gemini-3.8-flsh' is not in the catalog; using it as a custom model (did you mean 'gemini-3.8-flash'?)
                        -c:2:1: error: gemini-3.8-flsh is not available (404); the fallback gemini-3.5-flash-lite failed too: The model “gemini-3.5-flash-lite” is not available: it was retired or does not exist. HTTP 404 NOT_FOUND: models/gemini-3.5-flash-lite is not found for API version v1beta, or is not supported for generateContent. Call ModelService.ListModels to see the list of available models and their supported methods.

                        """,
                    status: 1))
    }

    @Test func aFallbackThatAnswersIsAnnounced() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "not_found"}"#, Self.hello])
        let outcome = try await shell.run(["-c", "set model gemini-3.8-flsh", "-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "hello\n",
                    stderr: """
                        note: 'gemini-3.8-flsh' is not in the catalog; using it as a custom model (did you mean 'gemini-3.8-flash'?)
                        note: gemini-3.8-flsh is not available (404); answered by the fallback gemini-3.5-flash-lite

                        """,
                    status: 0))
    }

    @Test func retryPolicyFallbackNoneIsOffAndAWordIsNotAModel() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "retry-policy fallback=none", "-c", "retry-policy", "-c", "retry-policy fallback=nope",
        ])
        #expect(outcome.stdout.contains("\nfallback=off\n"))
        #expect(
            outcome.stderr
                == "-c:3:1: error: retry-policy fallback: expected on, off (or none) or a model ID such as gemini-3.5-flash-lite, got 'nope'\n"
        )
        #expect(outcome.status == 1)
    }

    // MARK: 15. did you mean

    @Test func unknownNamesSuggestTheClosest() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "ehco hi", "-c", "ech hi", "-c", "set modle x", "-c", "ask --modle x hi", "-c", "zzzz",
        ])
        #expect(
            outcome.stderr == """
                -c:1:1: error: unknown command 'ehco' (did you mean 'echo'?)
                -c:2:1: error: unknown command 'ech' (did you mean 'echo'?)
                -c:3:1: error: unknown setting 'modle' (did you mean 'model'?)
                -c:4:1: error: ask: unknown option '--modle' (did you mean '--model'?)
                -c:5:1: error: unknown command 'zzzz' (see 'help')

                """)
        let flag = try await shell.run(["--jsn"])
        #expect(
            flag
                == .init(
                    stdout: "",
                    stderr: "sophon: unknown option '--jsn' (did you mean '--json'?)\nsee 'sophon --help'\n",
                    status: 2))
    }

    // MARK: 16. HTTP errors keep the server's words; finish reasons are named

    @Test func aBadRequestKeepsTheStatusAndTheServersMessage() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "bad_request"}"#])
        let outcome = try await shell.run(["-c", "ask hi"])
        #expect(
            outcome.stderr == """
                -c:1:1: error: Invalid request: HTTP 400 INVALID_ARGUMENT: Invalid value at 'generation_config'.
                  generation_config.temperature: must be between 0 and 2

                """)
        #expect(outcome.status == 1)
    }

    @Test func anExhaustedQuotaKeepsTheStatusLine() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"fault": "quota_per_day"}"#])
        let outcome = try await shell.run(["-c", "ask hi"])
        #expect(
            outcome.stderr.hasPrefix(
                "-c:1:1: error: Quota exhausted (GenerateRequestsPerDayPerProjectPerModel-FreeTier): HTTP 429 RESOURCE_EXHAUSTED: You exceeded your current quota"
            ))
        #expect(outcome.status == 1)
    }

    static let rateLimitMessage =
        "Rate limited by the server: retry in 0.01 s. HTTP 429 RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. Please retry in 0.01s."

    @Test func aRateLimitPastTheLastAttemptKeepsTheStatusAndTheServersMessage() async throws {
        let shell = try await GeminiShell()
        let limited = #"{"fault": "rate_limit", "retryDelay": "0.01s"}"#
        try await shell.server.script([limited, limited, limited])
        let outcome = try await shell.run(["-c", "ask hi"])
        #expect(outcome == .init(stdout: "", stderr: "-c:1:1: error: \(Self.rateLimitMessage)\n", status: 1))
        #expect(try await shell.server.requests().count == 3)

        try await shell.server.script([limited, limited, limited])
        let json = try await shell.run(["--json", "-c", "ask hi"])
        let line = try JSONValue(parsing: json.stdout)
        #expect(line["ok"] == .bool(false))
        #expect(line["error"]?["kind"] == .string("rateLimited"))
        #expect(line["error"]?["message"] == .string(Self.rateLimitMessage))
        #expect(json.status == 1)
    }

    @Test(arguments: ["on", "off"])
    func aStopWithoutContentNamesTheReasonAndTheFinishMessage(stream: String) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "emptyContent": true, "finishReason": "LANGUAGE", "finishMessage": "Unsupported language."}"#
        ])
        let outcome = try await shell.run(["-c", "set stream \(stream)", "-c", "ask hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "-c:2:1: error: The model stopped without an answer (finish reason LANGUAGE). Unsupported language.\n",
                    status: 1))
    }
}
