import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `sophon test --models A,B` (a files x models matrix, a tape per model, JUnit classname with
/// the model) and `run --models A,B` (a line per key and model): PRODUCT §14.
@Suite(.childSlots) struct ModelMatrixTests {
    static func rules(_ shell: GeminiShell, _ replies: [(model: String, text: String)]) async throws {
        let rules = replies.map {
            #"{"model": "\#($0.model)", "reply": {"kind": "generate", "text": "\#($0.text)", "usage": {"prompt": 4, "candidates": 2}}}"#
        }
        _ = try await shell.server.control(
            "POST", "/_sophon/rules", body: #"{"reset": true, "rules": [\#(rules.joined(separator: ","))]}"#)
    }

    @Test func testRunsEveryFileOnEachModelWithItsOwnTapeAndAMatrix() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("t"), withIntermediateDirectories: true)
        try shell.write("t/a.sophon", "ask hi\nexpect $last == \"yes\"\n")
        try shell.write("t/b.sophon", "expect 1 == 1\n")
        try await Self.rules(shell, [("gemini-2.5-flash", "yes"), ("gemini-3.8-flash", "no")])
        let recorded = try await shell.run([
            "test", "--record-missing", "--jobs", "1", "--junit", "j.xml", "--models",
            "gemini-2.5-flash,gemini-3.8-flash",
            "t",
        ])
        #expect(recorded.status == 1)
        let lines = recorded.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: #"\d+\.\d s\)"#, with: "S s)", options: .regularExpression)
        }
        #expect(
            lines == [
                "PASS t/a.sophon [gemini-2.5-flash] (1 expects, S s)",
                "FAIL t/a.sophon [gemini-3.8-flash]",
                "PASS t/b.sophon [gemini-2.5-flash] (1 expects, S s)",
                "PASS t/b.sophon [gemini-3.8-flash] (1 expects, S s)",
                "",
                #"t/a.sophon:2 [gemini-3.8-flash]: failed: expect $last == "yes""#,
                #"    expected "no" == "yes""#,
                "file        gemini-2.5-flash  gemini-3.8-flash",
                "t/a.sophon  PASS              FAIL",
                "t/b.sophon  PASS              PASS",
                // 2.5 Flash: 4 x 0.30 + 2 x 2.50; 3.8 Flash: 4 x 0.75 + 2 x 3.75 (per 1M tokens).
                "cost: $0.0000167",
                "3 passed, 1 failed",
                "",
            ])
        // One tape per file and model; b made no call, so its tapes hold no exchange.
        for name in ["t/a.gemini-2.5-flash.tape", "t/a.gemini-3.8-flash.tape"] {
            #expect(shell.read(name)?.contains("GenerateContent") == true)
        }
        let junit = try #require(shell.read("j.xml"))
        #expect(junit.contains(#"<testcase name="t/a.sophon" classname="t.a.gemini-2.5-flash" time="#))
        #expect(junit.contains(#"<testcase name="t/a.sophon" classname="t.a.gemini-3.8-flash" time="#))
        // Replayed from the tapes: the same verdicts, nothing sent.
        try await shell.server.script([])
        let replayed = try await shell.run([
            "--json", "test", "--models", "gemini-2.5-flash,gemini-3.8-flash", "t/a.sophon",
        ])
        #expect(replayed.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        #expect(
            replayed.stdout.contains(
                #""files":[{"path":"t/a.sophon","model":"gemini-2.5-flash","passed":true,"#))
        #expect(replayed.stdout.contains(#"{"path":"t/a.sophon","model":"gemini-3.8-flash","passed":false,"#))
    }

    @Test func testRefusesAnUnknownModel() async throws {
        let shell = try await GeminiShell()
        try shell.write("a.sophon", "expect 1 == 1\n")
        let outcome = try await shell.run(["test", "--models", "gemini-2.5-flsh", "a.sophon"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.hasPrefix(
                "sophon: test: unknown model 'gemini-2.5-flsh' (did you mean 'gemini-2.5-flash'?)"))
    }

    @Test func runWritesALinePerKeyAndModelAndResumesEach() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "in.jsonl", #"{"key": "a", "prompt": "alpha"}"# + "\n" + #"{"key": 2, "prompt": "beta"}"# + "\n")
        try await Self.rules(shell, [("gemini-2.5-flash", "A"), ("gemini-3.8-flash", "B")])
        let outcome = try await shell.run([
            "run", "in.jsonl", "-o", "out.jsonl", "--models", "gemini-2.5-flash,gemini-3.8-flash",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr
                == "run: 4/4 done, 0 failed, 0 reused (same request); cost $0.0000334; wrote out.jsonl\n")
        let usage = #""usage":{"promptTokens":4,"outputTokens":2,"thoughtsTokens":0,"totalTokens":6}"#
        #expect(
            shell.read("out.jsonl") == """
                {"key":"a","ok":true,"result":"A","model":"gemini-2.5-flash",\(usage)}
                {"key":"a","ok":true,"result":"B","model":"gemini-3.8-flash",\(usage)}
                {"key":2,"ok":true,"result":"A","model":"gemini-2.5-flash",\(usage)}
                {"key":2,"ok":true,"result":"B","model":"gemini-3.8-flash",\(usage)}

                """)
        // Adding a model asks only it.
        let more = try await shell.run([
            "run", "in.jsonl", "-o", "out.jsonl", "--models",
            "gemini-2.5-flash,gemini-3.8-flash,gemini-3.5-flash",
        ])
        #expect(more.stderr.hasPrefix("run: 6/6 done, 0 failed, 4 reused (same request); "))
        #expect(try await shell.server.requests().filter { $0.path.contains("gemini-3.5-flash") }.count == 2)
        #expect(try await shell.server.requests().count == 6)
    }
}
