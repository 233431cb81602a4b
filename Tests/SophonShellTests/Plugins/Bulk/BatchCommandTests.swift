import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `batch` end to end: the real binary against scripts/fake_gemini.py's Batch endpoints.
@Suite(.childSlots) struct BatchCommandTests {
    static let input =
        [
            #"{"key": "a", "prompt": "alpha"}"#, #"{"key": "b", "prompt": "bravo"}"#,
            #"{"key": "c", "prompt": "charlie"}"#,
        ].joined(separator: "\n") + "\n"

    static func faults(_ shell: GeminiShell, _ body: String) async throws {
        _ = try await shell.server.control("POST", "/_sophon/batch-faults", body: body)
    }

    /// The create requests the server saw: their display names and request counts.
    static func creates(_ shell: GeminiShell) async throws -> [String] {
        try await shell.server.requests().filter { $0.path.hasSuffix(":batchGenerateContent") }.map {
            request in
            let batch = request.body["batch"] ?? .null
            guard case .array(let items)? = batch["inputConfig"]?["requests"]?["requests"] else { return "?" }
            return "\(batch["displayName"]?.stringValue ?? "?"):\(items.count)"
        }
    }

    @Test func aLostCreateAnswerIsLookedUpAndNeverCreatesTwoJobs() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"loseCreate": 1}"#)
        try shell.write("in.jsonl", Self.input)
        let outcome = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("batches/"))
        #expect(try await Self.creates(shell) == ["night:3"])
        let journal = try JSONValue(parsing: shell.read("batches.json") ?? "")
        #expect(journal["jobs"]?[0]?["name"]?.stringValue == outcome.stdout.trimmingCharacters(in: .newlines))

        // The same submit again reconciles with the journal: nothing is created.
        let again = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(again.stdout == outcome.stdout)
        #expect(try await Self.creates(shell) == ["night:3"])
        let list = try await shell.run(["batch", "list"])
        #expect(list.stdout.split(separator: "\n").count == 1)
    }

    @Test func aSubmitOfEditedPromptsCreatesANewJobAndSaysSo() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.input)
        let first = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(first.status == 0)
        // The prompts edited: the old job does not stand for them.
        try shell.write("in.jsonl", Self.input.replacingOccurrences(of: "bravo", with: "BRAVO2"))
        let edited = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(edited.status == 0)
        #expect(edited.stdout.hasPrefix("batches/"))
        #expect(edited.stdout != first.stdout)
        let renamed = try await Self.secondJobRenamed(shell, from: "night")
        let firstName = first.stdout.trimmingCharacters(in: .newlines)
        #expect(
            edited.stderr
                == "batch submit: in.jsonl sends other requests than \(firstName) (changed lines); submitting them as \(renamed)\n"
        )
        // The same edited input again reconciles with the new job: nothing is created.
        let again = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(again.stdout == edited.stdout)
        #expect(try await Self.creates(shell).count == 2)
    }

    /// The display name of the second of two jobs created, checked to be `NAME-HASH8`.
    private static func secondJobRenamed(_ shell: GeminiShell, from name: String) async throws -> String {
        let creates = try await creates(shell)
        #expect(creates.count == 2)
        let renamed = String(creates.last?.split(separator: ":").first ?? "")
        #expect(renamed.hasPrefix(name + "-") && renamed.count == name.count + 9)
        return renamed
    }

    /// Another input under a display name already journaled gets a name of its own (breaker2:
    /// it made a second job named `night`, and `batch status night` then stood for the newest
    /// one without a word).
    @Test func anotherInputUnderATakenNameGetsItsOwnName() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.input)
        try shell.write("other.jsonl", #"{"key": "z", "prompt": "zulu"}"# + "\n")
        let first = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        let other = try await shell.run(["batch", "submit", "other.jsonl", "--name", "night"])
        #expect(other.status == 0)
        let renamed = try await Self.secondJobRenamed(shell, from: "night")
        let firstName = first.stdout.trimmingCharacters(in: .newlines)
        #expect(
            other.stderr
                == "batch submit: other.jsonl sends other requests than \(firstName) (the job of \(shell.home.path)/in.jsonl); submitting them as \(renamed)\n"
        )
        // `night` is still the first job; the same submit again creates nothing.
        let status = try await shell.run(["batch", "status", "night"])
        #expect(status.stdout.hasPrefix("\(firstName) (night): "))
        let again = try await shell.run(["batch", "submit", "other.jsonl", "--name", "night"])
        #expect(again.stdout == other.stdout)
        #expect(try await Self.creates(shell).count == 2)
    }

    @Test func aJournalWithoutRequestHashesIsNotTakenForTheSameSubmit() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.input)
        let first = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(first.status == 0)
        // A journal written before hashes were kept.
        let journal = shell.read("batches.json") ?? ""
        let old = journal.split(separator: "\n").filter { !$0.contains(#""requests""#) }.joined(
            separator: "\n")
        try shell.write("batches.json", old.replacingOccurrences(of: "],\n    \"schema", with: "]"))
        #expect((try? JSONValue(parsing: shell.read("batches.json") ?? "")) != nil)
        let again = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(again.status == 0)
        #expect(again.stdout != first.stdout)
        #expect(again.stderr.contains("(no request hash recorded); submitting them as night-"))
        #expect(try await Self.creates(shell).count == 2)
    }

    @Test func batchListWithNoJobsSaysSo() async throws {
        let shell = try await GeminiShell()
        let list = try await shell.run(["batch", "list"])
        #expect(list == .init(stdout: "(no batch jobs)\n", stderr: "", status: 0))
    }

    /// A display name that neither the journal nor the server knows carries the subcommand's
    /// prefix too.
    @Test func anUnknownDisplayNameFailsWithTheSubcommandsPrefix() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "batch status nope", "-c", "batch cancel nope"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr: """
                        -c:1:1: error: batch status: no job named 'nope'
                        -c:2:1: error: batch cancel: no job named 'nope'

                        """, status: 1))
    }

    /// The server's 404 for a job carries the subcommand's prefix, as every other batch error
    /// does (it read `error: HTTP 404 ...` alone).
    @Test func aJobTheServerDoesNotHoldFailsWithTheSubcommandsPrefix() async throws {
        let shell = try await GeminiShell()
        for sub in ["status", "wait", "cancel", "delete"] {
            let outcome = try await shell.run(["batch", sub, "batches/nope"])
            #expect(
                outcome
                    == .init(
                        stdout: "",
                        stderr: "error: batch \(sub): HTTP 404 NOT_FOUND: Batch batches/nope not found.\n",
                        status: 1))
        }
        let json = try await shell.run(["--json", "batch", "status", "batches/nope"])
        #expect(
            json.stdout
                == #"{"command":"batch status batches/nope","ok":false,"error":{"kind":"http","message":"batch status: HTTP 404 NOT_FOUND: Batch batches/nope not found."}}"#
                + "\n")
    }

    /// A broken journal is said, with its place, before anything is sent (as `cache list`
    /// says it): `batch list` printed `(no batch jobs)` over it.
    @Test func batchListOverABrokenJournalSaysWhereItBreaks() async throws {
        let shell = try await GeminiShell()
        let journal = shell.home.appendingPathComponent("batches.json").path
        try shell.write("batches.json", "{\"jobs\": [\n  {\"x\": 1,}\n]}\n")
        let unparsed = try await shell.run(["batch", "list"])
        #expect(
            unparsed
                == .init(
                    stdout: "",
                    stderr:
                        "error: batch list: \(journal): not a batch journal (line 2, column 11: unexpected '}' after ',')\n",
                    status: 1))
        try shell.write("batches.json", #"{"jobs": [{"displayName": 3}]}"#)
        let misshapen = try await shell.run(["batch", "list"])
        #expect(
            misshapen
                == .init(
                    stdout: "",
                    stderr:
                        "error: batch list: \(journal): not a batch journal ($.jobs[0].displayName: expected a string)\n",
                    status: 1))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func a429OnCreateIsWaitedOutAndMakesOneJob() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"createRateLimited": 1}"#)
        try shell.write("in.jsonl", Self.input)
        let outcome = try await shell.run(["batch", "submit", "in.jsonl", "--name", "n"])
        #expect(outcome.status == 0)
        #expect(try await Self.creates(shell) == ["n:3", "n:3"])
        #expect(try await shell.run(["batch", "list"]).stdout.split(separator: "\n").count == 1)
    }

    @Test func aJobStuckPendingThenSucceededIsWaitedFor() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"pendingFor": 40, "runningFor": 10}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 20}"#)
        try shell.write("in.jsonl", Self.input)
        let name = try await shell.run(["batch", "submit", "in.jsonl", "--name", "slow"]).stdout
            .trimmingCharacters(in: .newlines)
        let outcome = try await shell.run(["batch", "wait", "slow"])
        #expect(
            outcome.stderr
                == "batch wait: \(name) PENDING\nbatch wait: \(name) RUNNING\nbatch wait: \(name) SUCCEEDED\n"
        )
        #expect(
            outcome.stdout.hasPrefix(
                "\(name) (slow): SUCCEEDED, 3 requests: 3 succeeded, 0 failed, 0 pending"))
        #expect(outcome.status == 0)
    }

    /// `batch wait` polls through the client's one poller; a look answered 503 is retried by
    /// the retry policy like any call (issue 24: no wait loop of its own).
    @Test func a503DuringTheWaitIsRetriedAndTheWaitGoesOn() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"pendingFor": 0, "runningFor": 10}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 10}"#)
        try shell.write("in.jsonl", Self.input)
        let name = try await shell.run(["batch", "submit", "in.jsonl", "--name", "flaky"]).stdout
            .trimmingCharacters(in: .newlines)
        try await Self.faults(shell, #"{"getUnavailable": 1}"#)
        let outcome = try await shell.run(["batch", "wait", "flaky"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "batch wait: \(name) RUNNING\nbatch wait: \(name) SUCCEEDED\n")
        let gets = try await shell.server.requests().filter {
            $0.method == "GET" && $0.path == "/v1beta/\(name)"
        }
        #expect(gets.count == 3)  // 503, then RUNNING, then SUCCEEDED.
    }

    /// `-o` into a folder that does not exist is refused before anything is read (it was made,
    /// `/nonexistent` included).
    @Test func resultsIntoAMissingFolderAreRefusedAndNoFolderIsMade() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["batch", "results", "any", "-o", "missing/out.jsonl"])
        #expect(
            outcome.stderr
                == "error: batch results: -o: the folder '\(shell.home.path)/missing' does not exist\n"
        )
        #expect(outcome.status == 1)
        #expect(!FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("missing").path))
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `-o` naming a folder is refused as `run -o` refuses it, before the job is fetched (it was
    /// found only after the answers were downloaded, without the `batch results:` prefix).
    @Test func resultsIntoAFolderAreRefusedBeforeTheJobIsFetched() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("out"), withIntermediateDirectories: true)
        let outcome = try await shell.run(["--json", "batch", "results", "any", "-o", "out"])
        #expect(
            outcome.stdout
                == #"{"command":"batch results any -o out","ok":false,"error":{"kind":"fileError","message":"batch results: -o: cannot replace 'out': it is a folder, not a regular file"}}"#
                + "\n")
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func resultsOutOfOrderAreMatchedByKeyWithFailuresAsOkFalse() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(
            shell, #"{"outOfOrder": true, "blocked": ["b"], "itemErrors": ["c"], "pendingFor": 0}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 100}"#)
        try shell.write("in.jsonl", Self.input)
        let name = try await shell.run(["batch", "submit", "in.jsonl"]).stdout.trimmingCharacters(
            in: .newlines)
        #expect(try await shell.run(["batch", "wait", name]).status == 0)
        let outcome = try await shell.run(["batch", "results", "in", "-o", "out.jsonl"])
        #expect(
            outcome.stderr.hasPrefix(
                "batch results: 3 keys, 2 failed; cost $0.000014625 (Batch price); wrote out.jsonl\n"))
        #expect(outcome.status == 1)
        #expect(
            shell.read("out.jsonl") == """
                {"key":"a","ok":true,"result":"Hello from the fake Gemini server.","model":"gemini-3.8-flash",\
                "usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}}
                {"key":"b","ok":false,"error":{"kind":"promptBlocked","message":"The prompt was blocked (SAFETY)."}}
                {"key":"c","ok":false,"error":{"kind":"invalidRequest",\
                "message":"Invalid request: Request contains an invalid argument."}}

                """)
        // resubmit takes the key with a per-item error only.
        let resubmitted = try await shell.run(["batch", "resubmit", name])
        #expect(resubmitted.status == 0)
        #expect(try await Self.creates(shell) == ["in:3", "in-resubmit-1:1"])
    }

    @Test func anExpiredJobIsResubmittedWithEveryKey() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"expire": true}"#)
        try shell.write("in.jsonl", Self.input)
        let name = try await shell.run(["batch", "submit", "in.jsonl", "--name", "old"]).stdout
            .trimmingCharacters(in: .newlines)
        let waited = try await shell.run(["batch", "wait", "old"])
        #expect(waited.status == 1)
        #expect(waited.stderr.contains("error: batch wait: \(name) (old): EXPIRED, 3 requests"))
        try await Self.faults(shell, #"{"expire": false}"#)
        let resubmitted = try await shell.run(["batch", "resubmit", "old"])
        #expect(resubmitted.status == 0)
        #expect(try await Self.creates(shell) == ["old:3", "old-resubmit-1:3"])
    }

    @Test func pastMaxRequestsTheInputIsSplitIntoJobs() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.input)
        let outcome = try await shell.run([
            "batch", "submit", "in.jsonl", "--name", "s", "--max-requests", "2",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.split(separator: "\n").count == 2)
        #expect(try await Self.creates(shell) == ["s-1:2", "s-2:1"])
    }

    @Test func badInputSendsNothing() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "in.jsonl", "{\"key\": \"a\", \"prompt\": \"x\"}\n{\"key\": \"a\", \"prompt\": \"y\"}\n")
        let outcome = try await shell.run(["batch", "submit", "in.jsonl"])
        #expect(
            outcome.stderr
                == "error: batch submit: in.jsonl: 1 bad line; nothing was sent\nin.jsonl:2: duplicate key 'a' (first on line 1)\n"
        )
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }

    /// Points `TMPDIR` at a regular file: anything written in the system's temporary folder
    /// fails.
    static func breakTemporaryFolder(_ shell: GeminiShell) throws {
        shell.extraEnvironment["TMPDIR"] = try shell.write("not-a-folder", "")
    }

    @Test func temporaryFilesGoInTheStateFolderNotTMPDIR() async throws {
        let shell = try await GeminiShell()
        try Self.breakTemporaryFolder(shell)
        try shell.write("in.jsonl", Self.input)
        let submit = try await shell.run(["batch", "submit", "in.jsonl", "--name", "night"])
        #expect(submit.stderr == "")
        #expect(submit.status == 0)
        #expect(try await shell.run(["batch", "wait", "night"]).status == 0)
        #expect(try await shell.run(["batch", "status", "night"]).status == 0)
        let results = try await shell.run(["batch", "results", "night", "-o", "out.jsonl"])
        #expect(
            results.stderr
                == "batch results: 3 keys, 0 failed; cost $0.000043875 (Batch price); wrote out.jsonl\n")
        #expect(results.status == 0)
        #expect(shell.read("out.jsonl")?.split(separator: "\n").count == 3)
        // The state folder's tmp/ is private and left empty.
        let folder = shell.home.appendingPathComponent("tmp").path
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }

    @Test func pastTheInlineLimitTheRequestsGoUpAsAFileAndResultsComeFromTheResultsFile() async throws {
        let shell = try await GeminiShell()
        // The requests file, the Operation and the results file go in the state folder.
        try Self.breakTemporaryFolder(shell)
        try await Self.faults(
            shell, #"{"loseCreate": 1, "outOfOrder": true, "itemErrors": ["b"], "pendingFor": 0}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 100}"#)
        // The upload is PROCESSING until two GETs of it have passed: the create waits for ACTIVE.
        _ = try await shell.server.control("POST", "/_sophon/files", body: #"{"processingSeconds": 2}"#)
        // Three prompts of 7,000,000 bytes: an inline body of over 21,000,000 bytes.
        let big = String(repeating: "x", count: 7_000_000)
        let lines = ["a", "b", "c"].map { #"{"key": "\#($0)", "prompt": "\#(big)"}"# }
        try shell.write("big.jsonl", lines.joined(separator: "\n") + "\n")
        let outcome = try await shell.run(["batch", "submit", "big.jsonl", "--name", "big"])
        #expect(outcome.status == 0)
        let name = outcome.stdout.trimmingCharacters(in: .newlines)
        #expect(name.hasPrefix("batches/"))

        let seen = try await shell.server.requests()
        let creates = seen.filter { $0.path.hasSuffix(":batchGenerateContent") }
        // The create's answer was lost: it was looked up by display name, not sent again.
        #expect(creates.count == 1)
        let fileName = creates.first?.body["batch"]?["inputConfig"]?["fileName"]?.stringValue ?? ""
        #expect(fileName.hasPrefix("files/"))
        #expect(creates.first?.body["batch"]?["inputConfig"]?["requests"] == nil)
        #expect(creates.first?.body["batch"]?["displayName"]?.stringValue == "big")
        let start = seen.first { $0.path == "/upload/v1beta/files" }
        #expect(start?.headers["x-goog-upload-header-content-type"] == "application/jsonl")
        let line = #"{"key":"a","request":{"contents":[{"role":"user","parts":[{"text":""# + big + #""}]}]}}"#
        let uploads = try await JSONValue(
            parsing: String(
                decoding: shell.server.control("GET", "/_sophon/uploads", body: nil), as: UTF8.self))
        #expect(uploads[0]?["size"]?.compactText == String(3 * (line.utf8.count + 1)))
        #expect(uploads[0]?["received"]?.compactText == String(3 * (line.utf8.count + 1)))
        #expect(uploads[0]?["file"]?.stringValue == fileName)
        let fileGets = seen.filter { $0.path == "/v1beta/\(fileName)" }.count
        #expect(fileGets == 2)
        #expect(try await shell.run(["batch", "list"]).stdout.split(separator: "\n").count == 1)

        // Submitting again reconciles with the journal: no upload, no create.
        #expect(
            try await shell.run(["batch", "submit", "big.jsonl", "--name", "big"]).stdout == outcome.stdout)
        let again = try await shell.server.requests()
        #expect(again.filter { $0.path.hasSuffix(":batchGenerateContent") }.count == 1)
        #expect(
            again.filter { $0.path.hasPrefix("/upload/") }.count
                == seen.filter { $0.path.hasPrefix("/upload/") }.count)

        #expect(try await shell.run(["batch", "wait", "big"]).status == 0)
        let results = try await shell.run(["batch", "results", "big", "-o", "out.jsonl"])
        #expect(
            results.stderr.hasPrefix(
                "batch results: 3 keys, 1 failed; cost $0.00002925 (Batch price); wrote out.jsonl\n"))
        #expect(results.status == 1)
        let id = name.dropFirst("batches/".count)
        #expect(
            try await shell.server.requests().contains {
                $0.path == "/v1beta/files/batch-\(id):download?alt=media"
            }
        )
        #expect(
            shell.read("out.jsonl") == """
                {"key":"a","ok":true,"result":"Hello from the fake Gemini server.","model":"gemini-3.8-flash",\
                "usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}}
                {"key":"b","ok":false,"error":{"kind":"invalidRequest",\
                "message":"Invalid request: Request contains an invalid argument."}}
                {"key":"c","ok":true,"result":"Hello from the fake Gemini server.","model":"gemini-3.8-flash",\
                "usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}}

                """)
        // resubmit reads the results file too: only the key with an error goes again (inline now).
        #expect(try await shell.run(["batch", "resubmit", name]).status == 0)
        let resubmitted = try await shell.server.requests().filter {
            $0.path.hasSuffix(":batchGenerateContent")
        }
        .last
        #expect(resubmitted?.body["batch"]?["displayName"]?.stringValue == "big-resubmit-1")
        guard case .array(let items)? = resubmitted?.body["batch"]?["inputConfig"]?["requests"]?["requests"]
        else {
            Issue.record("the resubmit was not inline")
            return
        }
        #expect(items.map { $0["metadata"]?["key"]?.stringValue } == ["b"])
    }

    @Test func aKeyWrittenAsANumberComesBackAsANumber() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"pendingFor": 0, "itemErrors": ["7"]}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 100}"#)
        try shell.write(
            "in.jsonl", #"{"key": 7, "prompt": "x"}"# + "\n" + #"{"key": "8", "prompt": "y"}"# + "\n")
        #expect(try await shell.run(["batch", "submit", "in.jsonl", "--name", "nums"]).status == 0)
        #expect(try await shell.run(["batch", "wait", "nums"]).status == 0)
        #expect(try await shell.run(["batch", "results", "nums", "-o", "out.jsonl"]).status == 1)
        #expect(
            shell.read("out.jsonl") == """
                {"key":7,"ok":false,"error":{"kind":"invalidRequest",\
                "message":"Invalid request: Request contains an invalid argument."}}
                {"key":"8","ok":true,"result":"Hello from the fake Gemini server.","model":"gemini-3.8-flash",\
                "usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}}

                """)
    }

    /// `--json`: the summary's facts as named members, as `run` gives them; beside the error
    /// when keys failed.
    @Test func resultsUnderJSONGiveTheSummaryAsNamedMembers() async throws {
        let shell = try await GeminiShell()
        try await Self.faults(shell, #"{"pendingFor": 0, "itemErrors": ["c"]}"#)
        _ = try await shell.server.control("POST", "/_sophon/clock", body: #"{"autoAdvance": 100}"#)
        try shell.write("in.jsonl", Self.input)
        #expect(try await shell.run(["batch", "submit", "in.jsonl", "--name", "j"]).status == 0)
        #expect(try await shell.run(["batch", "wait", "j"]).status == 0)
        let failed = try await shell.run(["--json", "batch", "results", "j", "-o", "out.jsonl"])
        #expect(failed.status == 1)
        #expect(
            failed.stdout
                == #"{"command":"batch results j -o out.jsonl","ok":false,"error":{"kind":"runFailed","#
                + #""message":"batch results: 1 of 3 keys failed (ok: false in out.jsonl)"},"#
                + #""result":{"output":"out.jsonl","keys":3,"failed":1,"cost":0.00002925}}"# + "\n")

        try await Self.faults(shell, #"{"itemErrors": []}"#)
        #expect(try await shell.run(["batch", "submit", "in.jsonl", "--name", "k"]).status == 0)
        #expect(try await shell.run(["batch", "wait", "k"]).status == 0)
        let passed = try await shell.run(["--json", "batch", "results", "k", "-o", "out.jsonl"])
        #expect(
            passed
                == .init(
                    stdout: #"{"command":"batch results k -o out.jsonl","ok":true,"#
                        + #""result":{"output":"out.jsonl","keys":3,"failed":0,"cost":0.000043875}}"# + "\n",
                    stderr:
                        "batch results: 3 keys, 0 failed; cost $0.000043875 (Batch price); wrote out.jsonl\n",
                    status: 0))
        // Without --json nothing goes to stdout.
        #expect(try await shell.run(["batch", "results", "k", "-o", "out2.jsonl"]).stdout == "")
    }
}
