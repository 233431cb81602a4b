import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

@Suite(.childSlots) struct InvocationTests {
    private static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        try Invocation.parse(arguments, isCommand: { ["extract", "help"].contains($0) })
    }

    @Test func commandWordStartsOneCommandMode() throws {
        let invocation = try Self.parse(["--json", "extract", "--schema", "x", "@f"])
        #expect(invocation.json)
        #expect(invocation.action == .oneCommand(name: "extract", arguments: ["--schema", "x", "@f"]))
    }

    @Test func filesAndLinesKeepTheirOrder() throws {
        let invocation = try Self.parse(["a.sophon", "-c", "echo hi", "b.sophon", "-c", "echo 2"])
        #expect(
            invocation.action
                == .scripts([
                    .file("a.sophon"), .line("echo hi", index: 1), .file("b.sophon"),
                    .line("echo 2", index: 2),
                ])
        )
    }

    @Test func aCommandWordAfterALineOrDashDashIsAFile() throws {
        #expect(
            try Self.parse(["-c", "echo hi", "extract"]).action
                == .scripts([.line("echo hi", index: 1), .file("extract")]))
        #expect(
            try Self.parse(["--", "extract", "--json"]).action
                == .scripts([.file("extract"), .file("--json")]))
    }

    @Test func aValueFlagTakesEqualsAndTheOneParsersRules() throws {
        #expect(try Self.parse(["--model=gemini-2.5-pro"]).model == "gemini-2.5-pro")
        #expect(
            try Self.parse(["-c", "a", "-c", "b"]).action
                == .scripts([.line("a", index: 1), .line("b", index: 2)]))
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--model"], "option '--model' needs a value"),
        (["-c"], "option '-c' needs a value"),
        (["--model", "a", "--model", "b"], "option '--model' is given twice"),
        (["--json", "a.sophon", "--json"], "option '--json' is given twice"),
        (["--verbose=yes"], "unknown option '--verbose=yes' (did you mean '--verbose'?)"),
        (["--jsno"], "unknown option '--jsno' (did you mean '--json'?)"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try Self.parse(arguments) }
    }

    @Test func flagsAreRead() throws {
        let invocation = try Self.parse([
            "--bail", "--echo", "-X", "--no-history", "--verbose", "--model", "m",
        ])
        #expect(invocation.bail && invocation.echo && !invocation.runRC && !invocation.useHistory)
        #expect(invocation.verbose && invocation.model == "m" && invocation.action == .standardInput)
    }
}

/// The real binary's `--version`, `--help` and usage errors.
@Suite(.childSlots) struct EntryPointTests {
    @Test func version() async throws {
        #expect(
            try await SophonProcess.run(["--version"])
                == .init(stdout: "sophon 0.1.0\n", stderr: "", status: 0))
    }

    @Test func helpListsCommandsFromTheRegistry() async throws {
        let outcome = try await SophonProcess.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("    extract [--schema SPEC] [--json] [TEXT | @FILE]  "))
        #expect(
            outcome.stdout.contains("  repair a model reply into strict JSON (stdin in one-command mode)\n"))
        #expect(outcome.stdout.contains("  --replay TAPE "))
    }

    @Test func unknownFlagExitsTwo() async throws {
        let outcome = try await SophonProcess.run(["--frobnicate"])
        #expect(
            outcome
                == .init(
                    stdout: "", stderr: "sophon: unknown option '--frobnicate'\nsee 'sophon --help'\n",
                    status: 2))
    }

    @Test func unknownWordSuggestsACommand() async throws {
        let outcome = try await SophonProcess.run(["extrat"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == "sophon: 'extrat' is neither a command nor a file (did you mean 'extract'?)\n")
    }
}
