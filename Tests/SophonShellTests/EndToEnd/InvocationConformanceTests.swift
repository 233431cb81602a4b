import Foundation
import SophonTestSupport
import Testing

@testable import SophonShell

/// PRODUCT.md §4 "Invocation" and §5 "Errors and locations", held by the real binary: usage
/// errors found before anything runs exit 2 with one clear line.
@Suite(.childSlots) struct InvocationConformanceTests {
    /// A script piped to stdin is a script file: a NUL byte in its first 8 KiB makes it binary.
    @Test func aBinaryScriptOnStdinIsAUsageError() async throws {
        let outcome = try await SophonProcess.run([], stdin: "echo a\u{0}b\necho after\n")
        #expect(outcome == .init(stdout: "", stderr: "sophon: '<stdin>' is not a text file\n", status: 2))
    }

    /// A command word after `-c` or a script is read as a file name; the message says how to run
    /// the command, never "did you mean" the same word.
    @Test func aCommandWordAfterAScriptIsNotAFile() async throws {
        let outcome = try await SophonProcess.run(["-c", "echo 1", "echo", "hi"])
        #expect(
            outcome
                == .init(
                    stdout: "",
                    stderr:
                        "sophon: 'echo' is not a file; a command runs alone, as the first word: sophon echo ARGS...\n",
                    status: 2))
    }

    /// A `-c` line that is not valid UTF-8 fails with its location, as a script line does: the
    /// plan reads it from the raw argument bytes, not from the repaired `String`.
    @Test func aCommandLineThatIsNotUTF8KeepsItsBadLine() throws {
        let raw: [UInt8] = Array("echo ".utf8) + [0xFF] + Array(" ok".utf8)
        var invocation = try Invocation.parse(["-c", "echo hi", "-c", String(decoding: raw, as: UTF8.self)]) {
            _ in false
        }
        invocation.rawArguments = [Array("-c".utf8), Array("echo hi".utf8), Array("-c".utf8), raw]
        guard case .sources(let sources, _) = try RunPlan(invocation).input else {
            Issue.record("expected sources")
            return
        }
        #expect(sources.map(\.0.name) == ["-c:1", "-c:2"])
        #expect(sources[0].0.invalidLines == [:])
        #expect(sources[1].0.invalidLines == [1: 5])
        #expect(sources[1].0.text == "echo \u{FFFD} ok")
    }

    /// `--echo` prints the transcript line in one-command mode too (PRODUCT.md §5 "Output").
    @Test func echoShowsTheOneCommand() async throws {
        let outcome = try await SophonProcess.run(["--echo", "echo", "a  b", "$x"])
        #expect(outcome == .init(stdout: "sophon> echo a  b $x\na  b $x\n", stderr: "", status: 0))
    }
}
