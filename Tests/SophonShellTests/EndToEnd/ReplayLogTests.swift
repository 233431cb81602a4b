import Foundation
import SophonTestSupport
import Testing

/// Issue 25 point 6: a replayed exchange is the tape's, not the user's: it is not logged, and
/// `--continue` never resumes it (after the tour, `--continue` resumed its taped "Dune" chat).
@Suite(.childSlots) struct ReplayLogTests {
    @Test func aReplayLogsNothingAndContinueDoesNotResumeIt() async throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
        let shell = try await GeminiShell(key: nil)
        let tour = try await shell.run([
            "-X", "--replay", examples.appendingPathComponent("tour.tape").path,
            examples.appendingPathComponent("tour.sophon").path,
        ])
        #expect(tour.status == 0)
        #expect(
            try await shell.run(["-c", "logs"])
                == .init(stdout: "(no exchanges logged yet)\n", stderr: "", status: 0))
        #expect(
            try await shell.run(["--continue", "-c", "history"])
                == .init(
                    stdout: "(no conversation yet; start one with 'chat')\n",
                    stderr: "note: no logged conversation to continue; starting a new one\n", status: 0))
    }

    /// A replay answers a plugin's calls from the tape, so `plugin load` of a plugin that is
    /// not there is skipped (and says so at a terminal); without a tape it is an error.
    @Test func aReplaySkipsAPluginThatIsNotHere() async throws {
        let shell = try await GeminiShell(key: nil)
        try shell.write("empty.tape", #"{"sophonTape":1}"# + "\n")
        #expect(
            try await shell.run([
                "-X", "--replay", "empty.tape", "-c", "plugin load gone/plugin", "-c", "echo ok",
            ])
                == .init(stdout: "ok\n", stderr: "", status: 0))
        #expect(
            try await shell.run(["-X", "-c", "plugin load gone/plugin"])
                == .init(
                    stdout: "", stderr: "-c:1:1: error: plugin load: no such file: gone/plugin\n", status: 1))
    }
}
