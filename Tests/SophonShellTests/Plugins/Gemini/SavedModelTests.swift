import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// A `settings.json` whose `model` is no model ID (breaker2): every call failed with `“a b” is
/// not a valid model ID.`, naming no file. Now a warning naming the file at start, and the
/// default model is used.
@Suite(.childSlots) struct SavedModelTests {
    @Test func aSavedModelThatIsNoModelIDIsWarnedAboutAndNotUsed() async throws {
        let shell = try await GeminiShell()
        try shell.write("settings.json", #"{"model": "a b"}"# + "\n")
        let outcome = try await shell.run(["-c", "show model", "-c", "ask hi"])
        #expect(
            outcome.stderr
                == "warning: \(shell.home.path)/settings.json: model 'a b' is not a valid model ID; not using it\n"
        )
        #expect(outcome.stdout == "gemini-3.8-flash\nHello from the fake Gemini server.\n")
        #expect(outcome.status == 0)
        let paths = try await shell.server.requests().map(\.path)
        #expect(paths == ["/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"])
    }

    @Test func aSavedCustomModelIsStillUsedAsGiven() async throws {
        let shell = try await GeminiShell()
        try shell.write("settings.json", #"{"model": "my-tuned-model"}"# + "\n")
        let outcome = try await shell.run(["-c", "show model"])
        #expect(outcome == .init(stdout: "my-tuned-model\n", stderr: "", status: 0))
    }

    /// `set model ID --sav`: an unknown option suggests `--save` (PRODUCT.md §5, "Errors and
    /// locations"), like every other command's options; nothing is saved or changed.
    @Test func aMisspeltSaveOptionOfSetModelSuggestsSave() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "set model gemini-2.5-flash --sav", "-c", "show model"])
        #expect(
            outcome
                == .init(
                    stdout: "gemini-3.8-flash\n",
                    stderr: "-c:1:1: error: set model: unknown option '--sav' (did you mean '--save'?)\n",
                    status: 1))
        #expect(shell.read("settings.json") == nil)
        let saved = try await shell.run(["-c", "set model --save gemini-2.5-flash"])
        #expect(saved == .init(stdout: "", stderr: "", status: 0))
        #expect(shell.read("settings.json") == #"{"model": "gemini-2.5-flash"}"# + "\n")
    }
}
