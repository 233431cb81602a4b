import Foundation
import SophonCore
import SophonGemini
import SophonTestSupport
import Testing

@testable import SophonShell

/// Cost (PRODUCT §14, docs/cost.md): `cost` in `--json`, the log and `show usage`; the `run`
/// summary; `run --estimate` and `batch submit --estimate`; `set budget` stopping a run.
@Suite(.childSlots) struct CostShellTests {
    static let reply =
        #"{"kind": "generate", "text": "ok", "usage": {"prompt": 4, "candidates": 2, "thoughts": 2}}"#
    static let lines = """
        {"key": "a", "prompt": "one two"}
        {"key": "b", "prompt": "three"}
        {"key": "c", "prompt": "four five six"}

        """

    @Test func askJSONLogAndShowUsageCarryTheCost() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.reply, Self.reply, Self.reply])
        let outcome = try await shell.run([
            "--json", "-c",
            "ask hi\nask --model gemini-2.5-flash hi\nask --model custom:mine hi\nshow usage\nlogs show 1",
        ])
        #expect(outcome.stderr == "")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        // 3.8 Flash: 4 x 0.75 + 2 x 3.75 + 2 x 3.75 per 1M tokens.
        #expect(lines[0].hasSuffix(#""retries":0,"cost":0.000018}"#))
        #expect(lines[1].hasSuffix(#""retries":0,"cost":0.0000112}"#))
        #expect(lines[2].hasSuffix(#""retries":0,"cost":"unknown"}"#))
        #expect(
            lines[3] == #"{"command":"show usage","ok":true,"result":{"calls":3,"#
                + #""usage":{"promptTokens":12,"outputTokens":6,"thoughtsTokens":6,"totalTokens":24},"models":["#
                + #"{"model":"gemini-3.8-flash","calls":1,"usage":{"promptTokens":4,"outputTokens":2,"thoughtsTokens":2,"totalTokens":8},"cost":0.000018},"#
                + #"{"model":"gemini-2.5-flash","calls":1,"usage":{"promptTokens":4,"outputTokens":2,"thoughtsTokens":2,"totalTokens":8},"cost":0.0000112},"#
                + #"{"model":"mine","calls":1,"usage":{"promptTokens":4,"outputTokens":2,"thoughtsTokens":2,"totalTokens":8},"cost":"unknown"}],"#
                + #""cost":"unknown"}}"#)
        #expect(lines[4].contains(#""cost":0.000018,"durationMs":"#))
        let text = try await shell.run(["-c", "show usage"])
        #expect(text.stdout == "0 calls: 0 prompt, 0 output, 0 thoughts, 0 total tokens\ntotal cost: $0.00\n")
    }

    @Test func showUsageListsEachModelAndTheTotal() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.reply, Self.reply, Self.reply])
        let outcome = try await shell.run([
            "-c", "ask hi\nask hi\nask --model gemini-2.5-flash hi\nshow usage",
        ])
        #expect(
            outcome.stdout.hasSuffix(
                """
                3 calls: 12 prompt, 6 output, 6 thoughts, 24 total tokens
                gemini-3.8-flash: 2 calls, 16 tokens, $0.000036
                gemini-2.5-flash: 1 call, 8 tokens, $0.0000112
                total cost: $0.0000472

                """))
    }

    @Test func runSummaryHasTheCostAndTheBudgetStopsItResumably() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.lines)
        _ = try await shell.server.control(
            "POST", "/_sophon/rules", body: #"{"reset": true, "rules": [{"reply": \#(Self.reply)}]}"#)
        // Each line costs $0.000018: the budget is spent after the second.
        let stopped = try await shell.run(["-c", "set budget 0.00003\nrun in.jsonl -o out.jsonl --jobs 1"])
        #expect(stopped.status == 1)
        #expect(
            stopped.stderr
                == "-c:1:2: error: run: budget reached ($0.000036 spent of $0.00003); 1 line left unsent; "
                + "the finished answers are in out.jsonl.partial; raise the budget (set budget AMOUNT) and run the "
                + "same command again to go on\n")
        // One call at a time: nothing was in flight, nothing more was sent.
        let sent = try await shell.server.requests().count
        #expect(sent == 2)
        #expect(shell.read("out.jsonl") == nil)
        // Resumed: only the line left is sent, and the summary prices this run's calls.
        let resumed = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(resumed.status == 0)
        #expect(
            resumed.stderr
                == "run: 3/3 done, 0 failed, 2 reused (same request); cost $0.000018; wrote out.jsonl\n")
        #expect(try await shell.server.requests().count == sent + 1)
    }

    /// Calls already in flight when the budget is spent were paid for: their answers are kept
    /// and counted, and only the lines never sent are left for the next run.
    @Test func theBudgetKeepsTheAnswersOfCallsInFlight() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.lines)
        _ = try await shell.server.control(
            "POST", "/_sophon/rules", body: #"{"reset": true, "rules": [{"reply": \#(Self.reply)}]}"#)
        // Two at a time: a and b are sent before either answer is back; the first answer spends
        // the budget, so c is never sent, and b's answer still counts.
        let stopped = try await shell.run(["-c", "set budget 0.00001\nrun in.jsonl -o out.jsonl --jobs 2"])
        #expect(stopped.status == 1)
        #expect(
            stopped.stderr
                == "-c:1:2: error: run: budget reached ($0.000036 spent of $0.00001); 1 line left unsent; "
                + "the finished answers are in out.jsonl.partial; raise the budget (set budget AMOUNT) and run the "
                + "same command again to go on\n")
        #expect(try await shell.server.requests().count == 2)
        let resumed = try await shell.run(["run", "in.jsonl", "-o", "out.jsonl"])
        #expect(
            resumed.stderr
                == "run: 3/3 done, 0 failed, 2 reused (same request); cost $0.000018; wrote out.jsonl\n")
        #expect(try await shell.server.requests().count == 3)
    }

    /// `run --models` stops at the budget too, each key and model counting as a line, and
    /// resumes with the pairs left.
    @Test func theBudgetStopsRunModelsResumably() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.lines)
        _ = try await shell.server.control(
            "POST", "/_sophon/rules", body: #"{"reset": true, "rules": [{"reply": \#(Self.reply)}]}"#)
        // a on 2.5 Flash ($0.0000112) and on 3.8 Flash ($0.000018): $0.0000292, under the budget;
        // b on 2.5 Flash reaches it.
        let stopped = try await shell.run([
            "-c",
            "set budget 0.00003\nrun in.jsonl -o out.jsonl --jobs 1 --models gemini-2.5-flash,gemini-3.8-flash",
        ])
        #expect(stopped.status == 1)
        #expect(
            stopped.stderr
                == "-c:1:2: error: run: budget reached ($0.0000404 spent of $0.00003); 3 lines left unsent; "
                + "the finished answers are in out.jsonl.partial; raise the budget (set budget AMOUNT) and run the "
                + "same command again to go on\n")
        let sent = try await shell.server.requests().count
        // Nothing is sent once the budget is spent (one call at a time: none in flight).
        #expect(sent == 3)
        #expect(shell.read("out.jsonl") == nil)
        let resumed = try await shell.run([
            "run", "in.jsonl", "-o", "out.jsonl", "--models", "gemini-2.5-flash,gemini-3.8-flash",
        ])
        #expect(resumed.status == 0)
        #expect(
            resumed.stderr
                == "run: 6/6 done, 0 failed, 3 reused (same request); cost $0.0000472; wrote out.jsonl\n")
        #expect(try await shell.server.requests().count == sent + 3)
    }

    @Test func aBudgetAlreadySpentSendsNothing() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.lines)
        try await shell.server.script([Self.reply])
        let outcome = try await shell.run(["-c", "set budget 0.00001\nask hi\nrun in.jsonl -o out.jsonl"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("run: budget reached ($0.000018 spent of $0.00001); 3 lines left unsent"))
        #expect(try await shell.server.requests().count == 1)
    }

    @Test func setBudgetTakesAPlainNumberOrOff() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c",
            "set budget 2.5\nshow budget\nset budget off\nshow budget\nset budget $3\nset budget -1\n"
                + "set budget 99999999999999999999999\nset budget 1000000.01\nshow budget\n"
                + "set budget 1000000\nshow budget",
        ])
        // A refused amount leaves the budget as it was (off), in the one wording of a refused
        // setting; past a million dollars: refused, with the range.
        #expect(outcome.stdout == "$2.50 ($0.00 spent)\noff\noff\n$1000000.00 ($0.00 spent)\n")
        let expected = "a plain number of US dollars in 0...1000000 (2.50) or off"
        #expect(
            outcome.stderr
                == "-c:1:5: error: set budget: expected \(expected), got '$3'\n"
                + "-c:1:6: error: set budget: expected \(expected), got '-1'\n"
                + "-c:1:7: error: set budget: expected \(expected), got '99999999999999999999999'\n"
                + "-c:1:8: error: set budget: expected \(expected), got '1000000.01'\n"
        )
    }

    @Test func showBudgetSaysWhatItDidNotCount() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.reply, Self.reply])
        let outcome = try await shell.run([
            "-c", "set budget 1\nask hi\nask --model custom:mine hi\nshow budget",
        ])
        #expect(outcome.status == 0)
        // A call of a model without a price is not 0 spent: it is said, not counted.
        #expect(outcome.stdout.hasSuffix("\n$1.00 ($0.000018 spent; 1 call of unknown cost not counted)\n"))
    }

    @Test func estimatesCountTokensAndGenerateNothing() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", Self.lines)
        let outcome = try await shell.run([
            "-c", "run in.jsonl --estimate\nset max-tokens 100\nbatch submit in.jsonl --estimate",
        ])
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                run: 3 requests, 6 input tokens; expected cost $0.0000045 for the input (the output is priced as it comes)
                batch submit: 3 requests, 6 input tokens; expected cost $0.00000225 for the input (the output is priced as it comes), at most $0.00056475 with max-tokens 100

                """)
        let paths = try await shell.server.paths()
        #expect(paths == Array(repeating: "/v1beta/models/gemini-3.8-flash:countTokens", count: 6))
    }

    /// A price that is not a finite number >= 0 (1e400 reads as infinity), and a model not in
    /// the table without both `input` and `output`, are warnings naming the file, the model and
    /// the member; the file's prices are not used (docs/cost.md).
    @Test(arguments: [
        (
            #"{"gemini-3.8-flash": {"input": 1e400, "output": 7.5}}"#,
            "gemini-3.8-flash.input: expected a finite number >= 0, got 1e400"
        ),
        (
            #"{"my-model": {"input": 1}}"#,
            "my-model.output: missing (a model not in the built-in table needs input and output)"
        ),
    ])
    func aBadPriceIsAWarningAndTheFileIsNotUsed(file: String, problem: String) async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.reply])
        try shell.write("prices.json", file)
        let outcome = try await shell.run(["--json", "-c", "ask hi"])
        #expect(
            outcome.stderr == "warning: \(shell.home.path)/prices.json: \(problem); its prices are not used\n"
        )
        #expect(outcome.stdout.hasSuffix(#""retries":0,"cost":0.000018}"# + "\n"))
    }

    /// `prices.json` is read as every state file is (``FileSnapshot``): a FIFO there is refused
    /// at once, never waited on, and the command goes on with the built-in prices.
    @Test func aFIFOAtPricesJSONIsAWarningNotAHang() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.reply])
        let path = shell.home.appendingPathComponent("prices.json").path
        #expect(mkfifo(path, 0o600) == 0)
        let outcome = try await shell.run(["--json", "-c", "ask hi"])
        #expect(
            outcome.stderr
                == "warning: cannot read '\(path)': it is a FIFO, not a regular file; its prices are not used\n"
        )
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix(#""retries":0,"cost":0.000018}"# + "\n"))
    }
}

/// The Flex discount (PRODUCT §14: "Batch and Flex discounts"; docs/cost.md): an exchange served
/// by the flex tier (`set service-tier flex`) is priced at half, in `--json`, `show usage`,
/// `run`'s summary and `--estimate`, and `compare`'s blocks.
@Suite(.childSlots) struct FlexPricingTests {
    @Test func flexExchangesAreHalfPrice() async throws {
        let shell = try await GeminiShell()
        try shell.write("in.jsonl", CostShellTests.lines)
        _ = try await shell.server.control(
            "POST", "/_sophon/rules",
            body: #"{"reset": true, "rules": [{"reply": \#(CostShellTests.reply)}]}"#)
        let outcome = try await shell.run([
            "-c",
            """
            set service-tier flex
            set output json
            ask hi
            set output pretty
            run in.jsonl -o out.jsonl --jobs 1
            run in.jsonl --estimate
            compare --models gemini-3.8-flash,gemini-2.5-flash hi
            show usage
            """,
        ])
        #expect(outcome.status == 0)
        // 3.8 Flash: (4 x 0.75 + 2 x 3.75 + 2 x 3.75) / 1M = $0.000018 standard, $0.000009 Flex.
        #expect(outcome.stdout.contains(#""retries":0,"cost":0.000009,"serviceTier":"flex"}"#))
        #expect(
            outcome.stderr.contains(
                "run: 3/3 done, 0 failed, 0 reused (same request); cost $0.000027; wrote out.jsonl\n"))
        #expect(
            outcome.stdout.contains(
                "run: 3 requests, 6 input tokens; expected cost $0.00000225 for the input"))
        // 2.5 Flash: (4 x 0.30 + 2 x 2.50 + 2 x 2.50) / 1M = $0.0000112 standard.
        #expect(outcome.stdout.contains("  cost: $0.000009\n"))
        #expect(outcome.stdout.contains("  cost: $0.0000056\n"))
        #expect(outcome.stdout.contains("total cost: $0.0000146\n"))
        #expect(
            outcome.stdout.hasSuffix(
                """
                gemini-3.8-flash: 5 calls, 40 tokens, $0.000045
                gemini-2.5-flash: 1 call, 8 tokens, $0.0000056
                total cost: $0.0000506

                """))
    }

    @Test(
        arguments: [
            (served: "standard", traffic: nil, requested: "flex", expected: "standard"),
            (served: nil, traffic: nil, requested: "flex", expected: "flex"),
            (served: "flex", traffic: nil, requested: nil, expected: "flex"),
            (served: nil, traffic: "ON_DEMAND_FLEX", requested: nil, expected: "flex"),
            (served: nil, traffic: "ON_DEMAND", requested: "flex", expected: "standard"),
            (served: nil, traffic: nil, requested: "priority", expected: "standard"),
        ] as [(served: String?, traffic: String?, requested: String?, expected: String)])
    func theServedTierWinsOverTheRequestedOne(
        _ served: String?, _ traffic: String?, _ requested: String?, _ expected: String
    ) {
        var usage = UsageMetadata(promptTokenCount: 1)
        usage.serviceTier = served
        usage.trafficType = traffic
        #expect(ServedTier.pricing(usage, requested: requested) == (expected == "flex" ? .flex : .standard))
    }
}
