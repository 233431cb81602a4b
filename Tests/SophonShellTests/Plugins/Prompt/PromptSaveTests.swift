import Foundation
import SophonCore
import Testing

/// `prompt save FILE`: the session as a prompt file; `prompt FILE` of it sends the request the
/// session sent, byte for byte (the real binary against scripts/fake_gemini.py; PRODUCT §12).
@Suite struct PromptSaveTests {
    @Test func aStructuredAskSavedAndRunAgainSendsTheSameBytes() throws {
        let shell = try GeminiShell()
        let reply = #"{"kind": "generate", "text": "{\"title\": \"Alien\", \"year\": 1979}"}"#
        try shell.server.script([reply, reply])
        let saved = try shell.run([
            "-c", "set temperature 0.5", "-c", "set system Be terse.", "-c",
            "schema { title: string, year: integer }",
            "-c", "ask Name a film.", "-c", "prompt save film.prompt",
        ])
        #expect(saved.stderr == "")
        #expect(saved.status == 0)
        // The answer only: `prompt save` changes state and prints nothing (PRODUCT §5).
        #expect(saved.stdout == "{\n  \"title\": \"Alien\",\n  \"year\": 1979\n}\n")
        #expect(
            shell.read("film.prompt") == """
                ---
                model: googleai/gemini-3.8-flash
                config: {"temperature":0.5}
                output:
                  format: json
                  schema:
                    title: string
                    year: integer
                ---
                {{role "system"}}Be terse.
                {{~role "user"}}Name a film.

                """)
        let again = try shell.run(["-c", "prompt film.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func aSeedAndPenaltiesSavedAndRunAgainSendTheSameBytes() throws {
        let shell = try GeminiShell()
        let saved = try shell.run([
            "-c", "set seed 9", "-c", "set presence-penalty 0.25", "-c", "set frequency-penalty -1", "-c",
            "ask Hi", "-c", "prompt save p.prompt",
        ])
        #expect(saved.stderr == "")
        #expect(saved.status == 0)
        #expect(
            shell.read("p.prompt") == """
                ---
                model: googleai/gemini-3.8-flash
                config: {"seed":9,"presencePenalty":0.25,"frequencyPenalty":-1}
                ---
                {{role "user"}}Hi

                """)
        let again = try shell.run(["-c", "prompt p.prompt"])
        #expect(again.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func aChatWithHistorySavedAndRunAgainSendsTheSameBytes() throws {
        let shell = try GeminiShell()
        try shell.server.script([
            #"{"kind": "generate", "text": "Hello. "}"#, #"{"kind": "generate", "text": "Fine."}"#,
            #"{"kind": "generate", "text": "Fine."}"#,
        ])
        let saved = try shell.run([
            "-c", "set stream off", "-c", "set top-k 3", "-c", "chat Hi", "-c", "chat How are you?",
            "-c", "prompt save chat.prompt",
        ])
        #expect(saved.stderr == "")
        #expect(saved.status == 0)
        // The model's text ends in a space, which `{{~role}}` would drop: that block starts on
        // the same line.
        #expect(
            shell.read("chat.prompt") == """
                ---
                model: googleai/gemini-3.8-flash
                config: {"topK":3}
                ---
                {{role "user"}}Hi
                {{~role "model"}}Hello. {{role "user"}}How are you?

                """)
        let again = try shell.run(["-c", "set stream off", "-c", "prompt chat.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 3)
        #expect(requests[2].path == requests[1].path)
        #expect(requests[2].bodyText == requests[1].bodyText)
    }

    @Test func aSessionWithToolsSavedAndRunAgainSendsTheSameBytes() throws {
        let shell = try GeminiShell()
        let reply = #"{"kind": "generate", "text": "Take an umbrella."}"#
        try shell.server.script([reply, reply])
        let saved = try shell.run([
            "-c", "set stream off", "-c", "set system Be brief.", "-c", "set temperature 0.1",
            "-c", #"tool get_weather { city: string, days?: integer } "The forecast for a city""#,
            "-c", "ask Do I need an umbrella in Oslo?", "-c", "prompt save weather.prompt",
        ])
        #expect(saved.stderr == "")
        #expect(saved.status == 0)
        #expect(
            shell.read("weather.prompt") == """
                ---
                model: googleai/gemini-3.8-flash
                config: {"temperature":0.1}
                tools: ["get_weather"]
                toolDefs: [{"name":"get_weather","description":"The forecast for a city","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}]
                ---
                {{role "system"}}Be brief.
                {{~role "user"}}Do I need an umbrella in Oslo?

                """)
        // A new session without the tool: the file declares it.
        let again = try shell.run(["-c", "set stream off", "-c", "prompt weather.prompt"])
        #expect(again.stderr == "")
        #expect(again.stdout == "Take an umbrella.\n")
        #expect(again.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[0].bodyText.contains(#""functionDeclarations":[{"name":"get_weather""#))
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func anAttachedURLSavedAsMediaSendsTheSameBytes() throws {
        let shell = try GeminiShell()
        let reply = #"{"kind": "generate", "text": "A cat."}"#
        try shell.server.script([reply, reply])
        let saved = try shell.run([
            "-c", "set stream off", "-c", "attach --mime image/png https://example.com/cat.png",
            "-c", "attach https://example.com/notes.txt", "-c", "ask What is in the picture?",
            "-c", "prompt save media.prompt",
        ])
        #expect(saved.stderr == "")
        #expect(saved.status == 0)
        #expect(
            shell.read("media.prompt") == """
                ---
                model: googleai/gemini-3.8-flash
                ---
                {{role "user"}}{{media url="https://example.com/cat.png" contentType="image/png"}}{{media url="https://example.com/notes.txt"}}What is in the picture?

                """)
        let again = try shell.run(["-c", "set stream off", "-c", "prompt media.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 2)
        #expect(
            requests[0].bodyText.contains(
                #"{"fileData":{"mimeType":"image/png","fileUri":"https://example.com/cat.png"}}"#))
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func anOptionalFieldKeepsTheJSONSchemaPicoschemaWouldMakeNullable() throws {
        let shell = try GeminiShell()
        let outcome = try shell.run([
            "-c", "set dry-run on", "-c", "schema { title: string, year?: integer }", "-c",
            "ask Name a film.",
            "-c", "prompt save film.prompt", "-c", "prompt film.prompt",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        // `prompt save` prints nothing on stdout (a state change): the two dry runs, the same.
        let text = outcome.stdout
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        #expect(text.hasPrefix("POST "))
        #expect(text[..<middle] == text[middle...])
        #expect(
            shell.read("film.prompt")?.contains(
                #"  schema: {"type":"object","properties":{"title":{"type":"string"},"year":{"type":"integer"}},"required":["title"]}"#
            ) == true)
    }

    @Test func anExistingFileIsKeptWithoutForce() throws {
        let shell = try GeminiShell()
        try shell.write("film.prompt", "mine")
        let outcome = try shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save film.prompt",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:3:1: error: prompt save: film.prompt exists (--force replaces it)\n")
        #expect(shell.read("film.prompt") == "mine")
        let forced = try shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save --force film.prompt",
        ])
        #expect(forced.stderr == "")
        #expect(
            shell.read("film.prompt") == "---\nmodel: googleai/gemini-3.8-flash\n---\n{{role \"user\"}}Hi\n")
        #expect(try shell.server.requests().isEmpty)
    }

    @Test func nothingAskedYetIsAnErrorAndWritesNothing() throws {
        let shell = try GeminiShell()
        let outcome = try shell.run(["-c", "prompt save film.prompt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:1:1: error: prompt save: nothing asked yet in this session\n")
        #expect(shell.read("film.prompt") == nil)
    }

    @Test func textATemplateCannotSayIsRefused() throws {
        let shell = try GeminiShell()
        let outcome = try shell.run([
            "-c", "set dry-run on", "-c", "ask Print {{name}}", "-c", "prompt save film.prompt",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:3:1: error: prompt save: a message holds '{{', which a template cannot say yet\n")
        #expect(shell.read("film.prompt") == nil)
    }
}
