import Foundation
import SophonCore
import SophonGemini
import Synchronization
import Testing

@testable import SophonShell

/// `research`'s plain progress lines (docs/interactions.md): `[step N] TEXT` on stderr, each
/// step once, numbered from 1 over the steps shown (the user's input is not one).
@Suite struct ResearchProgressTests {
    final class Capture: ShellTextSink {
        let text = Mutex("")
        func write(_ text: String) { self.text.withLock { $0 += text } }
        var value: String { text.withLock { $0 } }
    }

    static func interaction(_ steps: String) throws -> GeminiInteraction {
        try GeminiInteraction(
            json: JSONValue(parsing: #"{"id": "v1_a", "status": "in_progress", "steps": [\#(steps)]}"#))
    }

    @Test func stepsAreNumberedFromOneOverTheStepsShown() throws {
        let errors = Capture()
        let io = ShellIO(stdout: Capture(), stderr: errors, readAllInput: { Data() })
        var progress = ResearchProgress(io: io, onTerminal: false)
        let input = #"{"type": "user_input", "content": [{"type": "text", "text": "Why?"}]}"#
        let thought = #"{"type": "thought", "summary": [{"type": "text", "text": "Looking"}]}"#
        progress.show(try Self.interaction(input + "," + thought))
        // The next poll repeats the timeline so far: only the new step is shown.
        progress.show(
            try Self.interaction(input + "," + thought + #", {"type": "model_output", "content": []}"#))
        #expect(errors.value == "[step 1] Looking\n[step 2] writing the report\n")
    }
}
