import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// A tape of `run` replays the same whatever order its concurrent calls take: each call
/// takes the exchange recorded for its own request (docs/tapes.md, "Replaying a run").
@Suite(.childSlots) struct RunTapeTests {
    static let input =
        ["alpha", "bravo", "charlie", "delta", "echo"].map { #"{"key": "\#($0)", "prompt": "\#($0)"}"# }
        .joined(separator: "\n") + "\n"

    /// Each prompt gets its own answer, so an answer replayed for the wrong key shows.
    static let rules =
        #"{"reset": true, "rules": ["#
        + ["alpha", "bravo", "charlie", "delta", "echo"].map {
            #"{"match": "\#($0)", "reply": {"kind": "generate", "text": "answer to \#($0)"}}"#
        }.joined(separator: ",") + "]}"

    @Test func aRunTapeReplaysInAnyOrder() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control("POST", "/_sophon/rules", body: Self.rules)
        try shell.write("in.jsonl", Self.input)
        let recorded = try await shell.run([
            "--record", "run.tape", "run", "in.jsonl", "-o", "live.jsonl", "--jobs", "1",
        ])
        #expect(recorded.status == 0)
        let live = try #require(shell.read("live.jsonl"))
        #expect(live.contains(#"{"key":"charlie","ok":true,"result":"answer to charlie""#))

        // The same exchanges, last first: the order calls of a run may reach a tape in.
        let lines = try #require(shell.read("run.tape")).split(separator: "\n").map(String.init)
        try #require(lines.count == 6)
        try shell.write(
            "reversed.tape", ([lines[0]] + lines.dropFirst().reversed()).joined(separator: "\n") + "\n")

        for (tape, jobs) in [("reversed.tape", "1"), ("reversed.tape", "5"), ("run.tape", "5")] {
            try? FileManager.default.removeItem(at: shell.home.appendingPathComponent("replayed.jsonl"))
            let replayed = try await shell.run([
                "--replay", tape, "run", "in.jsonl", "-o", "replayed.jsonl", "--jobs", jobs,
            ])
            #expect(replayed.status == 0, "\(tape) --jobs \(jobs): \(replayed.stderr)")
            #expect(shell.read("replayed.jsonl") == live, "\(tape) --jobs \(jobs)")
        }
    }

    @Test func outsideARunTheTapeIsStillMatchedInOrder() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control("POST", "/_sophon/rules", body: Self.rules)
        let recorded = try await shell.run(["--record", "two.tape", "-c", "ask alpha", "-c", "ask bravo"])
        #expect(recorded == .init(stdout: "answer to alpha\nanswer to bravo\n", stderr: "", status: 0))
        let swapped = try await shell.run(["--replay", "two.tape", "-c", "ask bravo", "-c", "ask alpha"])
        #expect(swapped.stdout == "")
        #expect(swapped.status == 1)
        #expect(
            swapped.stderr.contains(
                #"-c:1:1: error: request 1: body differs at $.contents[0].parts[0].text: recorded "alpha", got "bravo""#
            ))
    }
}
