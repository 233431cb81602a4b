import Foundation
import SophonCore
import SophonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `run` end to end: the real binary against scripts/fake_gemini.py over HTTP.
@Suite(.childSlots) struct RunCommandTests {
    static let hello = "Hello from the fake Gemini server."

    /// `{"key":K,"ok":true,...}` as the fake server's default answer makes it.
    static func okLine(_ key: String) -> String {
        #"{"key":"\#(key)","ok":true,"result":"\#(hello)","model":"gemini-3.8-flash","#
            + #""usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}}"#
    }

    /// Installs reply rules on the server (`/_sophon/rules`).
    static func rules(_ shell: GeminiShell, _ rules: String) async throws {
        _ = try await shell.server.control(
            "POST", "/_sophon/rules", body: #"{"reset": true, "rules": \#(rules)}"#)
    }

    /// How many generateContent requests carried `text` in their body.
    static func asked(_ shell: GeminiShell, _ text: String) async throws -> Int {
        try await shell.server.requests().filter { $0.bodyText.contains(text) }.count
    }

    /// Waits until `name` in the home folder holds at least `lines` lines.
    static let fiveKeys =
        [
            #"{"key": "a", "prompt": "alpha"}"#, "", #"{"key": "b", "prompt": "bravo"}"#,
            #"{"key": "c", "prompt": "charlie"}"#, #"{"key": "d", "prompt": "delta"}"#,
            #"{"key": "e", "prompt": "echo"}"#,
        ].joined(separator: "\n") + "\n"

    @Test func everyLineIsAnsweredInInputOrderWithFailuresAsOkFalse() async throws {
        let shell = try await GeminiShell()
        try await Self.rules(
            shell,
            #"[{"match": "BLOCKME", "reply": {"kind": "json", "body": {"promptFeedback": {"blockReason": "SAFETY"}}}},"#
                + #"{"match": "BADREQ", "reply": {"fault": "bad_request"}}]"#)
        try shell.write(
            "in.jsonl",
            [
                #"{"key": "a", "prompt": "alpha"}"#, "", #"{"prompt": "no key"}"#,
                #"{"key": 7, "request": {"contents": [{"role": "user", "parts": [{"text": "seven"}]}]}}"#,
                #"{"key": "blocked", "prompt": "BLOCKME"}"#, #"{"key": "bad", "prompt": "BADREQ"}"#,
            ].joined(separator: "\n"))
        let outcome = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl", "--jobs", "3"])
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "run: 5/5 done, 2 failed, 0 reused (same request); cost $0.00008775; wrote out.jsonl\n"
                + "error: run: 2 of 5 keys failed (ok: false in out.jsonl); add --retry-failed to ask them again\n"
        )
        #expect(outcome.status == 1)
        let lines = (shell.read("out.jsonl") ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first == Self.okLine("a"))
        #expect(lines.dropFirst().first == Self.okLine("line-3"))
        #expect(lines.dropFirst(2).first == Self.okLine("7").replacingOccurrences(of: #""7""#, with: "7"))
        #expect(
            lines.dropFirst(3).first
                == #"{"key":"blocked","ok":false,"error":{"kind":"promptBlocked","message":"The prompt was blocked (SAFETY)."}}"#
        )
        #expect(lines.last?.hasPrefix(#"{"key":"bad","ok":false,"error":{"kind":"invalidRequest","#) == true)
        #expect(shell.read("out.jsonl.partial") == nil)
        #expect(try await shell.server.requests().count == 5)

        // Started again: every key is answered, nothing is asked.
        let again = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(again.stderr.hasPrefix("run: 5/5 done, 2 failed, 5 reused (same request)"))
        #expect(try await shell.server.requests().count == 5)
        // --retry-failed asks the two failures again, and only them.
        let retried = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl", "--retry-failed"])
        #expect(retried.stderr.hasPrefix("run: 5/5 done, 2 failed, 3 reused (same request)"))
        #expect(try await Self.asked(shell, "BLOCKME") == 2)
        #expect(try await Self.asked(shell, "BADREQ") == 2)
        #expect(try await Self.asked(shell, "alpha") == 1)
    }

    /// `--json`: the summary's facts as named members, and this run's calls as `show usage`
    /// gives them (PRODUCT §5: a result, never a bare `ok`); kept beside a failed run's error.
    @Test func jsonGivesTheCountsUsageAndCostOfTheRun() async throws {
        let shell = try await GeminiShell()
        try await Self.rules(shell, #"[{"match": "BADREQ", "reply": {"fault": "bad_request"}}]"#)
        try shell.write(
            "in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n" + #"{"key": "b", "prompt": "bravo"}"#)
        let usage = #""usage":{"promptTokens":8,"outputTokens":14,"thoughtsTokens":0,"totalTokens":22}"#
        let outcome = try await shell.run(["--json", "run", "in.jsonl", "-o", "out.jsonl"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr
                == "run: 2/2 done, 0 failed, 0 reused (same request); cost $0.0000585; wrote out.jsonl\n")
        let expected: String =
            #"{"command":"run in.jsonl -o out.jsonl","ok":true,"result":{"output":"out.jsonl","keys":2,"#
            + #""failed":0,"reused":0,"sentAgain":0,"calls":2,\#(usage),"models":[{"model":"gemini-3.8-flash","#
            + #""calls":2,\#(usage),"cost":0.0000585}],"cost":0.0000585}}"# + "\n"
        #expect(outcome.stdout == expected)

        // One key changed and failing: reused 1, sent again 1, and the result beside the error.
        try shell.write(
            "in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n" + #"{"key": "b", "prompt": "BADREQ"}"#)
        let failed = try await shell.run(["-c", "set output json", "-c", "run in.jsonl -o out.jsonl"])
        #expect(failed.status == 1)
        let expectedFailure: String =
            #"{"command":"run in.jsonl -o out.jsonl","ok":false,"error":{"kind":"runFailed","#
            + #""message":"run: 1 of 2 keys failed (ok: false in out.jsonl); add --retry-failed to ask them again"},"#
            + #""result":{"output":"out.jsonl","keys":2,"failed":1,"reused":1,"sentAgain":1,"calls":0,"#
            + #""usage":{"promptTokens":0,"outputTokens":0,"thoughtsTokens":0,"totalTokens":0},"models":[],"#
            + #""cost":0.00}}"#
        // (`set output json` itself ran in the pretty format: nothing on stdout.)
        #expect(failed.stdout == expectedFailure + "\n")
        // Without --json, stdout stays empty.
        let plain = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(plain.stdout == "")
    }

    @Test func aChangedLineIsSentAgainAndTheSummarySaysWhy() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.fiveKeys)
        let first = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(first.status == 0)
        #expect(try await shell.server.requests().count == 5)
        // Same lines: every answer is reused.
        let same = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(
            same.stderr == "run: 5/5 done, 0 failed, 5 reused (same request); cost $0.00; wrote out.jsonl\n")
        #expect(try await shell.server.requests().count == 5)
        // Two prompts edited: those two are sent again, under the same keys.
        try shell.write(
            "in.jsonl",
            Self.fiveKeys.replacingOccurrences(of: "bravo", with: "BRAVO2")
                .replacingOccurrences(of: "echo", with: "ECHO2"))
        let edited = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(
            edited.stderr
                == "run: 5/5 done, 0 failed, 3 reused (same request), 2 sent again (request changed); cost $0.0000585; wrote out.jsonl\n"
        )
        #expect(try await Self.asked(shell, "BRAVO2") == 1)
        #expect(try await Self.asked(shell, "ECHO2") == 1)
        #expect(try await shell.server.requests().count == 7)
        // A setting changed (temperature): every line is sent again.
        let model = try await shell.run(["-c", "set temperature 0.3", "-c", "run in.jsonl -o out.jsonl"])
        #expect(
            model.stderr.hasSuffix(
                "0 reused (same request), 5 sent again (request changed); cost $0.00014625; wrote out.jsonl\n"
            ))
        #expect(try await shell.server.requests().count == 12)
        // The same settings, another model: every line is sent again, to that model.
        let other = try await shell.run([
            "-c", "set temperature 0.3", "-c", "set model gemini-2.5-flash", "-c",
            "run in.jsonl -o out.jsonl",
        ])
        #expect(
            other.stderr.hasSuffix(
                "0 reused (same request), 5 sent again (request changed); cost $0.0000935; wrote out.jsonl\n")
        )
        #expect(
            try await shell.server.requests().filter { $0.path.contains("/gemini-2.5-flash:generateContent") }
                .count
                == 5)
        // And the same again: all reused.
        let same2 = try await shell.run([
            "-c", "set temperature 0.3", "-c", "set model gemini-2.5-flash", "-c",
            "run in.jsonl -o out.jsonl",
        ])
        #expect(
            same2.stderr.hasSuffix(
                "run: 5/5 done, 0 failed, 5 reused (same request); cost $0.00; wrote out.jsonl\n"))
        #expect(
            try await shell.server.requests().filter { $0.path.contains("/gemini-2.5-flash:generateContent") }
                .count
                == 5)
    }

    @Test func anOutputWithoutRequestHashesIsSentAgainAndSaysSo() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.fiveKeys)
        // An OUTPUT written before requests were hashed.
        try shell.write("out.jsonl", ["a", "b", "c", "d", "e"].map { Self.okLine($0) + "\n" }.joined())
        let outcome = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(
            outcome.stderr
                == "run: 5/5 done, 0 failed, 0 reused (same request), 5 sent again (no request hash recorded); cost $0.00014625; wrote out.jsonl\n"
        )
        #expect(try await shell.server.requests().count == 5)
        #expect(shell.read("out.jsonl.requests")?.split(separator: "\n").count == 5)
    }

    /// A file `run` cannot write at the end (here `OUTPUT.requests` is a folder) is said as
    /// `run`'s error, with its prefix, as the command's other errors are.
    @Test func aWriteErrorAtTheEndNamesRun() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n")
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("out.jsonl.requests"), withIntermediateDirectories: false)
        let outcome = try await shell.run(["--json", "run", "in.jsonl", "-o", "out.jsonl"])
        let path = shell.home.appendingPathComponent("out.jsonl.requests").path
        #expect(
            outcome.stdout
                == #"{"command":"run in.jsonl -o out.jsonl","ok":false,"error":{"kind":"fileError","message":"run: cannot replace '\#(path)': it is a folder, not a regular file"}}"#
                + "\n")
        #expect(outcome.status == 1)
    }

    @Test func badLinesAreAllListedAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "bad.jsonl",
            [
                #"{"key":"a","prompt":"x"}"#, "{bad json", "", "[1]", #"{"key":"a","prompt":"y"}"#,
                #"{"key":"b"}"#, #"{"key":"c","prompt":"p","request":{}}"#,
                #"{"key":"d","request":{"contents":"x"}}"#, #"{"key":true,"prompt":"x"}"#,
                #"{"key":"e","prompt":"FIRST","prompt":"SECOND"}"#, #"{"key":"f","prompt":" \n "}"#,
            ].joined(separator: "\n") + "\n")
        let outcome = try await shell.run(["run", "bad.jsonl", "-o", "out.jsonl"])
        #expect(
            outcome.stderr == """
                error: bad.jsonl: 9 bad lines; nothing was sent
                bad.jsonl:2: not valid JSON (column 2: expected a string key but found 'b')
                bad.jsonl:4: expected a JSON object, got array
                bad.jsonl:5: duplicate key 'a' (first on line 1)
                bad.jsonl:6: needs "prompt" or "request"
                bad.jsonl:7: has both "prompt" and "request"; keep one
                bad.jsonl:8: "request" is not a GenerateContentRequest ($.contents: Expected to decode Array<Any> but found a string instead.)
                bad.jsonl:9: "key" must be a string or a number, got boolean
                bad.jsonl:10: "prompt" appears twice; keep one
                bad.jsonl:11: "prompt" is empty

                """)
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("out.jsonl") == nil)
        #expect(shell.read("out.jsonl.partial") == nil)
    }

    @Test func anOutputThatIsTheInputFileIsRefusedAndTheInputKept() async throws {
        let shell = try await GeminiShell()
        let text = #"{"key": "a", "prompt": "alpha"}"# + "\n"
        let path = try shell.write("in.jsonl", text)
        try FileManager.default.createSymbolicLink(
            atPath: shell.home.appendingPathComponent("link.jsonl").path, withDestinationPath: path)
        for output in ["in.jsonl", "link.jsonl"] {
            let outcome = try await shell.run(["run", "in.jsonl", "-o", output])
            #expect(
                outcome
                    == .init(
                        stdout: "",
                        stderr:
                            "error: run: OUTPUT '\(output)' is the input file 'in.jsonl'; write the results to another file\n",
                        status: 1))
        }
        #expect(shell.read("in.jsonl") == text)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aMissingInputNamesTheCommandAndThePath() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["run", "missing.jsonl", "-o", "out.jsonl"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: "error: run: cannot read 'missing.jsonl': no such file or directory\n",
                    status: 1))
    }

    /// An OUTPUT that is a folder, or in a folder that does not exist, is refused as `--html`
    /// refuses it (`run:` first, the folder named, not `OUTPUT.partial`), nothing sent and no
    /// folder made.
    @Test func anOutputFolderOrAMissingFolderIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n")
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("out"), withIntermediateDirectories: false)
        let folder = try await shell.run(["run", "in.jsonl", "-o", "out"])
        #expect(
            folder
                == .init(
                    stdout: "",
                    stderr: "error: run: -o: cannot replace 'out': it is a folder, not a regular file\n",
                    status: 1))
        let missing = try await shell.run(["--json", "run", "in.jsonl", "-o", "nowhere/out.jsonl"])
        let message = "run: -o: the folder '\(shell.home.path)/nowhere' does not exist"
        #expect(
            missing
                == .init(
                    stdout:
                        #"{"command":"run in.jsonl -o nowhere/out.jsonl","ok":false,"error":{"kind":"fileError","message":"\#(message)"}}"#
                        + "\n",
                    stderr: "error: \(message)\n", status: 1))
        #expect(!FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("nowhere").path))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func moreThanTwentyBadLinesListTwentyAndCountTheRest() async throws {
        let shell = try await GeminiShell()
        try shell.write("bad.jsonl", String(repeating: "nope\n", count: 23))
        let outcome = try await shell.run(["run", "bad.jsonl", "-o", "out.jsonl"])
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.first == "error: bad.jsonl: 23 bad lines; nothing was sent")
        #expect(lines.count == 22)
        #expect(lines.last == "(and 3 more)")
        #expect(outcome.status == 1)
    }

    /// Runs the five keys with `--jobs 1` until `a` and `b` are in the journal and `c` is in
    /// flight (stalled by the server), then sends `signal`.
    static func interruptedRun(_ shell: GeminiShell, signal: Int32) async throws -> Int32 {
        try await interruptedRunOutcome(shell, signal: signal).status
    }

    /// ``interruptedRun(_:signal:)`` with the whole outcome.
    static func interruptedRunOutcome(_ shell: GeminiShell, signal: Int32) async throws
        -> SophonProcess.Outcome
    {
        try await Self.rules(
            shell, #"[{"match": "charlie", "reply": {"fault": "stall", "seconds": 3600}, "times": 1}]"#)
        // The stalled call must outlast the test's wait: on a loaded machine the test's polling can
        // be starved for minutes, and a call timed out at 180 s would be retried and answered.
        _ = try shell.write("sophonrc", "set timeout 1h\n")
        try shell.write("in.jsonl", fiveKeys)
        let running = try shell.start(["run", "in.jsonl", "-o", "out.jsonl", "--jobs", "1"])
        try await Self.wait(for: running) {
            (Self.journal(shell).output ?? "").split(separator: "\n").count >= 2
        }
        try await Self.wait(for: running) {
            try await Self.asked(shell, "charlie") >= 1 && Self.journal(shell).sends >= 3
        }
        kill(running.process.processIdentifier, signal)
        return await running.finish()
    }

    /// A run that ended, or 900 s without `condition`: a failure instead of a hang.
    struct RunEndedEarly: Error {}

    /// Waits until `condition` holds while `running` is still running.
    /// - Throws: ``RunEndedEarly`` when the process ends first or 900 s pass (a hang).
    static func wait(for running: RunningSophon, until condition: () async throws -> Bool) async throws {
        let end = Date().addingTimeInterval(900)
        while try await !condition() {
            guard running.process.isRunning, Date() < end else { throw RunEndedEarly() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The output lines of a journal, without its `{"sent": ...}` lines; and how many of those.
    static func journal(_ shell: GeminiShell) -> (output: String?, sends: Int) {
        guard let text = shell.read("out.jsonl.partial") else { return (nil, 0) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let sends = lines.filter { $0.hasPrefix(#"{"sent":"#) }
        let answers = lines.filter { !$0.hasPrefix(#"{"sent":"#) && !$0.hasPrefix(#"{"request":"#) }
        return (answers.joined(separator: "\n"), sends.count)
    }

    @Test func aKilledRunResumesAskingEachKeyOnce() async throws {
        let shell = try await GeminiShell()
        let status = try await Self.interruptedRun(shell, signal: SIGKILL)
        #expect(status == SIGKILL)
        #expect(shell.read("out.jsonl") == nil)
        // The journal: a, b answered; a, b and c (in flight) started, for the resumed run's window.
        #expect(Self.journal(shell).output == Self.okLine("a") + "\n" + Self.okLine("b") + "\n")
        #expect(Self.journal(shell).sends == 3)

        let resumed = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl", "--jobs", "1"])
        #expect(
            resumed.stderr
                == "run: 5/5 done, 0 failed, 2 reused (same request); cost $0.00008775; wrote out.jsonl\n")
        #expect(resumed.status == 0)
        #expect(shell.read("out.jsonl") == ["a", "b", "c", "d", "e"].map { Self.okLine($0) + "\n" }.joined())
        #expect(shell.read("out.jsonl.partial") == nil)
        #expect(try await Self.asked(shell, "alpha") == 1)
        #expect(try await Self.asked(shell, "bravo") == 1)
        // c was in flight at the kill: asked again (at most --jobs keys are).
        #expect(try await Self.asked(shell, "charlie") == 2)
        #expect(try await Self.asked(shell, "delta") == 1)
        #expect(try await Self.asked(shell, "echo") == 1)
    }

    /// In the REPL on a terminal, Ctrl-C during a `run` ends the progress line, then says where
    /// the finished answers are and how to go on; the REPL goes on (issue 25 point 14).
    @Test func ctrlCOnATerminalSaysWhereTheAnswersAreAfterTheProgressLine() async throws {
        let shell = try await GeminiShell()
        try await Self.rules(
            shell, #"[{"match": "charlie", "reply": {"fault": "stall", "seconds": 3600}, "times": 1}]"#)
        _ = try shell.write("sophonrc", "set timeout 1h\n")  // As in interruptedRunOutcome.
        try shell.write("in.jsonl", Self.fiveKeys)
        let terminal = try LineReaderPseudoTerminal()
        defer { terminal.close() }
        let process = Process()
        process.executableURL = SophonProcess.binary
        process.arguments = ["--no-history"]
        var environment = shell.environment
        environment["TERM"] = "xterm"
        process.environment = environment
        process.currentDirectoryURL = shell.home
        let slave = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        process.standardInput = slave
        process.standardOutput = slave
        process.standardError = slave
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        terminal.type("run in.jsonl -o out.jsonl --jobs 1\r", count: 1)
        let end = Date().addingTimeInterval(900)  // A hang, not a slow machine.
        while try await
            !(Self.asked(shell, "charlie") >= 1 && Self.journal(shell).sends >= 3
            && (Self.journal(shell).output ?? "").split(separator: "\n").count >= 2)
        {
            try #require(process.isRunning && Date() < end)
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(process.processIdentifier, SIGINT)
        terminal.type("exit\r", count: 2)
        await OffPool.run { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(
            terminal.text.contains(
                " · 0 failed\r\nrun: interrupted; the finished answers are in out.jsonl.partial; "
                    + "run the same command again to go on (answered keys are not asked again)\r\n"
                    + "error: interrupted\r\nsophon> "))
        #expect(Self.journal(shell).output == Self.okLine("a") + "\n" + Self.okLine("b") + "\n")
    }

    @Test func ctrlCEndsWith130AndKeepsTheDoneKeys() async throws {
        let shell = try await GeminiShell()
        let outcome = try await Self.interruptedRunOutcome(shell, signal: SIGINT)
        #expect(outcome.status == 130)
        // It says where the finished answers are and how to go on.
        #expect(
            outcome.stderr.hasPrefix(
                "run: interrupted; the finished answers are in out.jsonl.partial; "
                    + "run the same command again to go on (answered keys are not asked again)\n"))
        #expect(Self.journal(shell).output == Self.okLine("a") + "\n" + Self.okLine("b") + "\n")
        let resumed = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(resumed.status == 0)
        #expect(shell.read("out.jsonl") == ["a", "b", "c", "d", "e"].map { Self.okLine($0) + "\n" }.joined())
        #expect(try await Self.asked(shell, "alpha") == 1)
    }

    @Test func a429StormSlowsTheRunAndEveryKeyStillSucceeds() async throws {
        let shell = try await GeminiShell()
        try await Self.rules(
            shell,
            #"[{"match": "bravo", "reply": {"fault": "rate_limit", "retryDelay": "0.2s"}, "times": 3}]"#)
        try shell.write("in.jsonl", Self.fiveKeys)
        let outcome = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl", "--jobs", "2"])
        #expect(
            outcome.stderr
                == "run: 5/5 done, 0 failed, 0 reused (same request); cost $0.00014625; wrote out.jsonl\n")
        #expect(outcome.status == 0)
        #expect(shell.read("out.jsonl") == ["a", "b", "c", "d", "e"].map { Self.okLine($0) + "\n" }.joined())
        #expect(try await Self.asked(shell, "bravo") == 4)
        #expect(try await Self.asked(shell, "alpha") == 1)
    }

    @Test func theServersPerMinuteLimitIsHonouredWithoutLosingAKey() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control("POST", "/_sophon/limits", body: #"{"rpm": 3}"#)
        try shell.write("in.jsonl", Self.fiveKeys)
        // The client-side limit matches the server's: no key is lost, none asked twice once
        // admitted. (Two keys wait for the window to slide: about a minute.)
        let outcome = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl", "--rpm", "3", "--jobs", "5"])
        #expect(outcome.status == 0)
        #expect(shell.read("out.jsonl") == ["a", "b", "c", "d", "e"].map { Self.okLine($0) + "\n" }.joined())
        let stats = try JSONValue(
            parsing: String(
                decoding: try await shell.server.control("GET", "/_sophon/stats", body: nil), as: UTF8.self))
        #expect(stats["admitted"] == .integer(5))
        #expect(stats["rateLimited"] == .integer(0))
    }
}

/// `run` and `batch` build a `prompt` line as `ask` builds its request (one path).
@Suite(.childSlots) struct RunRequestParityTests {
    static let settings = [
        "set system You are terse.", "set temperature 0.2", "set top-k 40", "set stop END",
        "set safety HARM_CATEGORY_HARASSMENT=BLOCK_ONLY_HIGH",
        #"tool get_weather { city: string } "Current weather for one city""#, "set tool-mode any",
        "set tools search",
    ]

    @Test func aRunLineAndABatchLineCarryTheBodyAskSends() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "Weather in Oslo?"}"# + "\n")
        try await shell.server.script([
            #"{"kind": "generate", "text": "Mild."}"#, #"{"kind": "generate", "text": "Mild."}"#,
        ])
        let outcome = try await shell.run(
            (Self.settings + [
                "ask Weather in Oslo?", "run in.jsonl -o out.jsonl", "batch submit in.jsonl --name parity",
            ]).flatMap { ["-c", $0] })
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        let generate = requests.filter { $0.path.hasSuffix(":generateContent") }
        try #require(generate.count == 2)
        #expect(generate[0].bodyText == generate[1].bodyText)
        let body = generate[0].body
        #expect(body["systemInstruction"]?["parts"]?[0]?["text"]?.stringValue == "You are terse.")
        #expect(body["toolConfig"]?["functionCallingConfig"]?["mode"]?.stringValue == "ANY")
        #expect(body["tools"]?[0]?["functionDeclarations"]?[0]?["name"]?.stringValue == "get_weather")
        #expect(body["tools"]?[1]?["googleSearch"] == .object([]))
        #expect(body["safetySettings"]?[0]?["threshold"]?.stringValue == "BLOCK_ONLY_HIGH")
        #expect(body["generationConfig"]?["topK"]?.compactText == "40")
        let create = try #require(requests.first { $0.path.hasSuffix(":batchGenerateContent") })
        let item = create.body["batch"]?["inputConfig"]?["requests"]?["requests"]?[0]?["request"]
        #expect(item == body)
    }
}
