import Foundation
import SophonTestSupport
import Testing

/// A script piped to `sophon` runs each command as soon as its last line has arrived, as
/// `sqlite3` and `psql` do, so `sophon` can be driven as a coprocess: each test writes a
/// command, waits for its answer on stdout, and only then writes the next (a `sophon` that read
/// all of stdin first would never answer, and the watchdog would end it: the test fails).
@Suite(.childSlots) struct StandardInputStreamTests {
    /// `sophon` with a fresh home and no key, its stdin a pipe the test writes as it goes.
    final class Coprocess: Sendable {
        let home: URL
        let running: RunningSophon

        init(_ arguments: [String] = []) throws {
            home = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sophon-stream-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            running = try RunningSophon(
                arguments: arguments,
                environment: [
                    "PATH": "/usr/bin:/bin", "SOPHON_HOME": home.path, "HOME": home.path, "LANG": "C.UTF-8",
                    "SOPHON_GEMINI_BASE_URL": "http://127.0.0.1:9",
                ],
                directory: home, timeout: 300)
        }

        deinit { try? FileManager.default.removeItem(at: home) }

        /// Writes `text` to sophon's stdin.
        func write(_ text: String) async {
            let input = running.input.fileHandleForWriting
            await OffPool.run { input.writeAllRetryingInterrupts(Data(text.utf8)) }
        }

        /// Ends sophon's stdin and waits for the end of the run.
        func finish() async throws -> SophonProcess.Outcome {
            try running.input.fileHandleForWriting.close()
            return await running.finish()
        }
    }

    @Test func eachCommandRunsAsSoonAsItsLineArrives() async throws {
        let sophon = try Coprocess()
        await sophon.write("echo first\n")
        #expect(await sophon.running.readStdout(until: "first\n") == "first\n")
        await sophon.write("echo second\n")
        #expect(await sophon.running.readStdout(until: "second\n") == "first\nsecond\n")
        await sophon.write("echo third")
        #expect(try await sophon.finish() == .init(stdout: "first\nsecond\nthird\n", stderr: "", status: 0))
    }

    /// A command over several lines runs once its last line is in; line numbers and carets
    /// count from the start of stdin, whatever was read when.
    @Test func aMultiLineCommandRunsWhenItsLastLineArrives() async throws {
        let sophon = try Coprocess()
        await sophon.write("echo one \\\n")
        await sophon.write("  two\n")
        #expect(await sophon.running.readStdout(until: "two\n") == "one two\n")
        await sophon.write("let text = \"\"\"\n  a block\n")
        await sophon.write("  \"\"\"\necho $text\n")
        #expect(await sophon.running.readStdout(until: "block\n") == "one two\na block\n")
        await sophon.write("echo \"bad\\q\"\n")
        #expect(await sophon.running.waitForStderr("^\n"))
        await sophon.write("echo after\n")
        #expect(
            try await sophon.finish()
                == .init(
                    stdout: "one two\na block\nafter\n",
                    stderr: "<stdin>:7:10: error: invalid escape '\\q' in double quotes; the escapes are "
                        + "\\\" \\\\ \\n \\t \\$ \\u{XXXX}\necho \"bad\\q\"\n         ^\n",
                    status: 1))
    }

    /// `exit` ends the run at once, whatever may still come on stdin.
    @Test func exitEndsTheRunWithoutWaitingForMoreInput() async throws {
        let sophon = try Coprocess()
        await sophon.write("echo bye\nexit 3\n")
        let outcome = await sophon.running.finish()
        #expect(outcome == .init(stdout: "bye\n", stderr: "", status: 3))
    }

    /// A NUL byte that arrives among the first 8 KiB after a command already ran stops the run
    /// there, with the message a binary script gets (exit 2); nothing after it runs.
    @Test func aLateNulByteInTheFirst8KiBStopsTheRun() async throws {
        let sophon = try Coprocess()
        await sophon.write("echo first\n")
        #expect(await sophon.running.readStdout(until: "first\n") == "first\n")
        await sophon.write("echo a\u{0}b\necho never\n")
        #expect(
            await sophon.running.finish()
                == .init(stdout: "first\n", stderr: "sophon: '<stdin>' is not a text file\n", status: 2))
    }
}
