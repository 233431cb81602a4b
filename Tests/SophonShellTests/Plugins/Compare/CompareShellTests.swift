import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `compare` (PRODUCT §14, docs/commands.md "compare"): the real binary against
/// scripts/fake_gemini.py, one reply per model through rules keyed by the model in the path
/// (the models are asked at once, so arrival order is not fixed).
@Suite(.childSlots) struct CompareShellTests {
    /// Rules answering `model` with `reply` (a JSON object text).
    static func rules(_ replies: [(model: String, reply: String)]) -> String {
        let rules = replies.map { #"{"model": "\#($0.model)", "reply": \#($0.reply)}"# }
        return #"{"reset": true, "rules": [\#(rules.joined(separator: ","))]}"#
    }

    static func movie(_ year: Int) -> String {
        #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": \#(year)}", "usage": {"prompt": 10, "candidates": 4, "thoughts": 2}}"#
    }

    /// stdout without the `latency:` lines (timing is not asserted in tests).
    static func withoutLatency(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("  latency: ") }
            .joined(separator: "\n")
    }

    @Test func blocksInOrderWithDifferencesCostsAndLastArray() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([("gemini-2.5-flash", Self.movie(1965)), ("gemini-2.5-pro", Self.movie(1966))]))
        let outcome = try await shell.run([
            "-c",
            """
            schema {title: string, year: integer}
            compare --models gemini-2.5-pro,gemini-2.5-flash which novel?
            echo ${last[0].model} ${last[0].answer.year} ${last[1].answer.year} ${last[1].cost}
            """,
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(
            Self.withoutLatency(outcome.stdout) == """
                gemini-2.5-pro
                  tokens: 10 input, 4 output, 2 thought, 0 cached
                  cost: $0.0000725
                  answer: {"title":"Dune","year":1966}
                  schema: valid

                gemini-2.5-flash
                  tokens: 10 input, 4 output, 2 thought, 0 cached
                  cost: $0.000018
                  answer: {"title":"Dune","year":1965}
                  schema: valid

                differences:
                  $.year: 1966 | 1965

                total cost: $0.0000905
                gemini-2.5-pro 1966 1965 0.000018

                """)
        let requests = try await shell.server.requests()
        #expect(
            Set(requests.map(\.path)) == [
                "/v1beta/models/gemini-2.5-pro:generateContent",
                "/v1beta/models/gemini-2.5-flash:generateContent",
            ])
        // The same turn on each model: one request body.
        #expect(requests.count == 2 && requests[0].bodyText == requests[1].bodyText)
        #expect(requests[0].body["generationConfig"]?["responseMimeType"]?.stringValue == "application/json")
    }

    /// Each block's latency is its model's time (it was always `0 ms`: set after the outcome
    /// was returned). The server waits 0.2 s per request: a lower bound, not a timing.
    @Test func eachBlockShowsItsModelsLatency() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control("POST", "/_sophon/limits", body: #"{"latency": 0.2}"#)
        let outcome = try await shell.run(["compare", "--models", "gemini-2.5-flash,gemini-2.5-pro", "hi"])
        #expect(outcome.status == 0)
        let latencies = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("  latency: ") }.map {
            Int($0.dropFirst("  latency: ".count).dropLast(" ms".count)) ?? -1
        }
        #expect(latencies.count == 2)
        #expect(latencies.allSatisfy { $0 >= 200 }, "\(latencies)")
    }

    @Test func jsonIsTheArrayWithDifferencesAndTotal() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([("gemini-2.5-flash", Self.movie(1965)), ("gemini-2.5-pro", Self.movie(1966))]))
        try shell.write(
            "movie.json",
            #"{"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}}}"#)
        let outcome = try await shell.run([
            "--json", "-c", "schema @movie.json\ncompare --models gemini-2.5-flash,gemini-2.5-pro novel",
        ])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        #expect(
            lines[1]
                == #"{"command":"compare --models gemini-2.5-flash,gemini-2.5-pro novel","ok":true,"result":["#
                + #"{"model":"gemini-2.5-flash","answer":{"title":"Dune","year":1965},"usage":{"promptTokens":10,"outputTokens":4,"thoughtsTokens":2,"totalTokens":16},"cost":0.000018,"error":null},"#
                + #"{"model":"gemini-2.5-pro","answer":{"title":"Dune","year":1966},"usage":{"promptTokens":10,"outputTokens":4,"thoughtsTokens":2,"totalTokens":16},"cost":0.0000725,"error":null}],"#
                + #""differences":[{"path":"$.year","values":[1965,1966]}],"cost":0.0000905}"#)
    }

    @Test func oneModelsFailureStaysInItsBlockAndFailsTheCommand() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([
                ("gemini-3-flash-preview", #"{"fault": "not_found"}"#),
                (
                    "gemini-3.8-flash",
                    #"{"kind": "generate", "text": "Hi", "usage": {"prompt": 4, "candidates": 1}}"#
                ),
            ]))
        let outcome = try await shell.run([
            "-c", "compare --models gemini-3-flash-preview,gemini-3.8-flash hi\necho ${last[1].answer}",
        ])
        #expect(outcome.status == 1)
        let stdout = Self.withoutLatency(outcome.stdout)
        #expect(stdout.hasPrefix("gemini-3-flash-preview\n  error: modelRetired: "))
        #expect(
            stdout.hasSuffix(
                """

                gemini-3.8-flash
                  tokens: 4 input, 1 output, 0 thought, 0 cached
                  cost: $0.00000675
                  answer: Hi

                total cost: $0.00000675
                Hi

                """))
        #expect(outcome.stderr.contains("compare: 1 of 2 failed: gemini-3-flash-preview"))
        // No fallback: a compared model answers as itself or fails.
        #expect(try await shell.server.requests().count == 2)
    }

    @Test func jsonOfAFailedCompareKeepsEveryResultBesideTheError() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([
                ("gemini-2.5-pro", #"{"fault": "bad_request"}"#),
                (
                    "gemini-3.8-flash",
                    #"{"kind": "generate", "text": "Hi", "usage": {"prompt": 4, "candidates": 1}}"#
                ),
            ]))
        let outcome = try await shell.run([
            "--json", "compare", "--models", "gemini-3.8-flash,gemini-2.5-pro", "hi",
        ])
        #expect(outcome.status == 1)
        // `result`, `differences` and `cost` stand beside `error`, as on success
        // (docs/commands.md, "compare"); the error is its kind and message.
        #expect(
            outcome.stdout
                == #"{"command":"compare --models gemini-3.8-flash,gemini-2.5-pro hi","ok":false,"#
                + #""error":{"kind":"compareFailed","message":"compare: 1 of 2 failed: gemini-2.5-pro"},"result":["#
                + #"{"model":"gemini-3.8-flash","answer":"Hi","usage":{"promptTokens":4,"outputTokens":1,"thoughtsTokens":0,"totalTokens":5},"cost":0.00000675,"error":null},"#
                + #"{"model":"gemini-2.5-pro","answer":null,"usage":{"promptTokens":0,"outputTokens":0,"thoughtsTokens":0,"totalTokens":0},"cost":null,"#
                + #""error":{"kind":"invalidRequest","message":"Invalid request: HTTP 400 INVALID_ARGUMENT: "#
                + #"Invalid value at 'generation_config'.\n  generation_config.temperature: must be between 0 and 2"}}],"#
                + #""cost":0.00000675}"# + "\n")
        let value = try JSONValue(parsing: outcome.stdout.trimmingCharacters(in: .newlines))
        #expect(value["result"]?[1]?["error"]?["kind"]?.stringValue == "invalidRequest")
        #expect(value["cost"]?.compactText == "0.00000675")
        #expect(value["error"]?["result"] == nil && value["error"]?["cost"] == nil)
    }

    /// Text and structured answers mixed (a prompt file without an output schema beside one with
    /// it): only the structured answers are compared, so two equal ones are no difference, and
    /// a text answer is `(not structured)`, never `(missing)`.
    @Test func onlyStructuredAnswersAreComparedAmongMixedOnes() async throws {
        let shell = try await GeminiShell()
        try shell.write("hello.prompt", "Hello, {{name}}!")
        try shell.write(
            "book.prompt",
            "---\noutput:\n  format: json\n  schema:\n    title: string\n    year: integer\n---\nA book for {{name}}."
        )
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([("gemini-2.5-flash", Self.movie(1965)), ("gemini-2.5-pro", Self.movie(1965))]))
        let same = try await shell.run([
            "compare", "--prompts", "hello.prompt,book.prompt", "--models", "gemini-2.5-flash,gemini-2.5-pro",
            "--data", #"{"input": {"name": "Ann"}}"#,
        ])
        #expect(same.stderr == "")
        #expect(same.status == 0)
        #expect(same.stdout.hasSuffix("\n\ndifferences: none\n\ntotal cost: $0.000181\n"))
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([("gemini-2.5-flash", Self.movie(1965)), ("gemini-2.5-pro", Self.movie(1966))]))
        let differ = try await shell.run([
            "--json", "compare", "--prompts", "hello.prompt,book.prompt", "--models",
            "gemini-2.5-flash,gemini-2.5-pro", "--data", #"{"input": {"name": "Ann"}}"#,
        ])
        #expect(differ.status == 0)
        #expect(
            differ.stdout.contains(
                #""differences":[{"path":"$.year","values":[null,null,1965,1966]}],"cost":0.000181}"#))
    }

    /// An error of a compared prompt file names `compare`, as `run --prompt`'s name `run`.
    @Test func aPromptFilesErrorNamesCompare() async throws {
        let shell = try await GeminiShell()
        try shell.write("hello.prompt", "Hello, {{name}}!")
        let outcome = try await shell.run([
            "compare", "--prompts", "hello.prompt,nope.prompt", "--data", #"{"input": {"name": "Ann"}}"#,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "error: compare: nope.prompt:1:1: cannot open 'nope.prompt': No such file or directory\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `--prompts` is read as `--models` is (one rule): an empty item or a file given twice is a
    /// usage error before anything is sent, never a silently dropped or doubled candidate.
    @Test func promptsListRefusesEmptyItemsAndRepeatsAsModelsDoes() async throws {
        let shell = try await GeminiShell()
        try shell.write("hello.prompt", "Hello, {{name}}!")
        let data = #"{"input": {"name": "Ann"}}"#
        let cases = [
            (
                "hello.prompt,,hello.prompt",
                "error: compare: --prompts: item 2 of 'hello.prompt,,hello.prompt' is empty\n"
            ),
            ("hello.prompt, hello.prompt", "error: compare: --prompts: 'hello.prompt' is given twice\n"),
            (" , ", "error: compare: --prompts needs prompt files separated by commas\n"),
        ]
        for (list, stderr) in cases {
            let outcome = try await shell.run(["compare", "--prompts", list, "--data", data])
            #expect(outcome.status == 1)
            #expect(outcome.stdout == "")
            #expect(outcome.stderr == stderr)
        }
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `--html FILE` where no report can be written is refused before anything is sent (the
    /// answers were paid for, then lost): a folder, a folder that does not exist, an empty name.
    @Test func aReportThatCannotBeWrittenIsRefusedBeforeAnythingIsSent() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("reports"), withIntermediateDirectories: false)
        let refused = [
            (
                "reports",
                "error: compare: --html: cannot replace 'reports': it is a folder, not a regular file\n"
            ),
            (
                "missing/c.html",
                "error: compare: --html: the folder '\(shell.home.path)/missing' does not exist\n"
            ),
            ("", "error: compare: --html needs a file name\n"),
        ]
        for (path, stderr) in refused {
            let outcome = try await shell.run([
                "compare", "--html", path, "--models", "gemini-2.5-flash,gemini-3.8-flash", "hi",
            ])
            #expect(outcome == .init(stdout: "", stderr: stderr, status: 1), "\(path)")
        }
        #expect(try await shell.server.requests().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: shell.home.appendingPathComponent("missing").path))
    }

    @Test func unknownModelIsRefusedWithTheClosestNameAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["compare", "--models", "gemini-2.5-flsh,gemini-3.8-flash", "hi"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr
                == "error: compare: unknown model 'gemini-2.5-flsh' (did you mean 'gemini-2.5-flash'?); the catalog has "
                + "gemini-2.5-flash-lite, gemini-2.5-flash, gemini-2.5-pro, gemini-3-flash-preview, gemini-3.1-flash-lite, "
                + "gemini-3.1-pro-preview, gemini-3.5-flash-lite, gemini-3.5-flash, gemini-3.6-flash, gemini-3.8-flash; "
                + "write custom:ID for another model\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aModelGivenTwiceOrAnEmptyItemIsRefusedAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n")
        try shell.write("a.sophon", "expect 1 == 1\n")
        let twice = try await shell.run(["compare", "--models", "gemini-2.5-flash, gemini-2.5-flash", "hi"])
        #expect(twice.status == 1)
        #expect(twice.stderr == "error: compare: --models: 'gemini-2.5-flash' is given twice\n")
        let empty = try await shell.run([
            "-c", "run in.jsonl -o out.jsonl --models gemini-2.5-flash,,gemini-3.8-flash",
        ])
        #expect(
            empty.stderr
                == "-c:1:1: error: run: --models: item 2 of 'gemini-2.5-flash,,gemini-3.8-flash' is empty\n")
        let test = try await shell.run(["test", "--models", "gemini-2.5-flash,gemini-2.5-flash", "a.sophon"])
        #expect(test.status == 2)
        #expect(test.stderr.hasPrefix("sophon: test: --models: 'gemini-2.5-flash' is given twice"))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func customModelIsAcceptedAndItsCostIsUnknown() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "text": "ok", "usage": {"prompt": 3, "candidates": 1}}"#
        ])
        let outcome = try await shell.run(["--json", "compare", "--models", "custom:my-tuned-model", "hi"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#""model":"my-tuned-model","answer":"ok""#))
        #expect(outcome.stdout.contains(#""cost":"unknown","error":null}],"cost":"unknown"}"#))
        #expect(try await shell.server.paths() == ["/v1beta/models/my-tuned-model:generateContent"])
    }

    @Test func pricesJSONOverridesAndABrokenOneIsAWarning() async throws {
        let shell = try await GeminiShell()
        try shell.write("prices.json", #"{"my-model": {"input": 1, "output": 2}}"#)
        try await shell.server.script([
            #"{"kind": "generate", "text": "ok", "usage": {"prompt": 3, "candidates": 1}}"#
        ])
        var outcome = try await shell.run(["compare", "--models", "custom:my-model", "hi"])
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.contains("  cost: $0.000005\n"))
        try shell.write("prices.json", "{\"my-model\": {\"input\": 1,,}}")
        try await shell.server.script([
            #"{"kind": "generate", "text": "ok", "usage": {"prompt": 3, "candidates": 1}}"#
        ])
        outcome = try await shell.run(["compare", "--models", "custom:my-model", "hi"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("  cost: unknown\n"))
        #expect(
            outcome.stderr == "warning: \(shell.home.path)/prices.json: line 1, column 26: "
                + "expected a string key but found ','; its prices are not used\n")
    }

    @Test func promptFilesAreComparedThroughThePromptRenderer() async throws {
        let shell = try await GeminiShell()
        try shell.write("a.prompt", "---\nmodel: gemini-2.5-flash\n---\nSay hi to {{name}}.")
        try shell.write("b.prompt", "---\nmodel: googleai/gemini-2.5-pro\n---\nGreet {{name}} warmly.")
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: Self.rules([
                ("gemini-2.5-flash", #"{"kind": "generate", "text": "hi Ada"}"#),
                ("gemini-2.5-pro", #"{"kind": "generate", "text": "Hello, dear Ada"}"#),
            ]))
        try shell.write("data.json", #"{"input": {"name": "Ada"}}"#)
        let outcome = try await shell.run([
            "-c", "compare --prompts a.prompt,b.prompt --data @data.json\necho ${last[1].prompt}",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(Self.withoutLatency(outcome.stdout).contains("a.prompt (gemini-2.5-flash)\n  tokens: "))
        #expect(outcome.stdout.contains("  answer: hi Ada\n\nb.prompt (gemini-2.5-pro)\n"))
        #expect(outcome.stdout.hasSuffix("b.prompt\n"))
        let bodies = try await shell.server.requests().map {
            $0.body["contents"]?[0]?["parts"]?[0]?["text"]?.stringValue
        }
        #expect(Set(bodies.compactMap { $0 }) == ["Say hi to Ada.", "Greet Ada warmly."])
    }

    @Test func dryRunPrintsEachRequestAndSendsNothing() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "compare", "--dry-run", "--models", "gemini-2.5-flash,gemini-2.5-pro", "hi",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout.hasPrefix("POST /v1beta/models/gemini-2.5-flash:generateContent\n"))
        #expect(outcome.stdout.contains("\nPOST /v1beta/models/gemini-2.5-pro:generateContent\n"))
        #expect(try await shell.server.requests().isEmpty)
    }
}
