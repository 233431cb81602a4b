import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `ask|chat|tokens --model ID` (breaker2): a malformed ID is refused by the command, typed and
/// prefixed, before anything is built or sent (it was the library's `“a b” is not a valid model
/// ID.`, with no command name); a name outside the catalog gets the notice `set model` gives
/// (`--model gemini-2.5-prx` went out silently).
@Suite(.childSlots) struct AskModelOptionTests {
    @Test func aMalformedModelIsRefusedByTheCommandAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "--json", "-c", #"ask --model "a b" hi"#, "-c", #"chat --model "" hi"#, "-c",
            "tokens --model x/y hi",
        ])
        #expect(
            outcome.stdout == """
                {"command":"ask --model \\"a b\\" hi","ok":false,"error":{"kind":"invalidModelID","message":"ask: --model: 'a b' is not a valid model ID"}}
                {"command":"chat --model \\"\\" hi","ok":false,"error":{"kind":"invalidModelID","message":"chat: --model: '' is not a valid model ID"}}
                {"command":"tokens --model x/y hi","ok":false,"error":{"kind":"invalidModelID","message":"tokens: --model: 'x/y' is not a valid model ID"}}

                """)
        #expect(
            outcome.stderr == """
                -c:1:1: error: ask: --model: 'a b' is not a valid model ID
                -c:2:1: error: chat: --model: '' is not a valid model ID
                -c:3:1: error: tokens: --model: 'x/y' is not a valid model ID

                """)
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aNameOutsideTheCatalogIsSaidWithTheClosestPreset() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "ask --model gemini-2.5-prx --dry-run hi", "-c", "ask --model custom:mine --dry-run hi",
        ])
        #expect(
            outcome.stderr
                == "note: 'gemini-2.5-prx' is not in the catalog; using it as a custom model (did you mean 'gemini-2.5-pro'?)\n"
        )
        #expect(
            outcome.stdout.hasPrefix("POST /v1beta/models/gemini-2.5-prx:streamGenerateContent?alt=sse\n"))
        #expect(outcome.stdout.contains("POST /v1beta/models/mine:streamGenerateContent?alt=sse\n"))
        #expect(outcome.status == 0)
    }
}
