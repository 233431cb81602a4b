import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `prompt save FILE`: the session as a prompt file; `prompt FILE` of it sends the request the
/// session sent, byte for byte (the real binary against scripts/fake_gemini.py; PRODUCT §12).
@Suite(.childSlots) struct PromptSaveTests {
    @Test func aStructuredAskSavedAndRunAgainSendsTheSameBytes() async throws {
        let shell = try await GeminiShell()
        let reply = #"{"kind": "generate", "text": "{\"title\": \"Alien\", \"year\": 1979}"}"#
        try await shell.server.script([reply, reply])
        let saved = try await shell.run([
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
        let again = try await shell.run(["-c", "prompt film.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func aSeedAndPenaltiesSavedAndRunAgainSendTheSameBytes() async throws {
        let shell = try await GeminiShell()
        let saved = try await shell.run([
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
        let again = try await shell.run(["-c", "prompt p.prompt"])
        #expect(again.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func aChatWithHistorySavedAndRunAgainSendsTheSameBytes() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "text": "Hello. "}"#, #"{"kind": "generate", "text": "Fine."}"#,
            #"{"kind": "generate", "text": "Fine."}"#,
        ])
        let saved = try await shell.run([
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
        let again = try await shell.run(["-c", "set stream off", "-c", "prompt chat.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 3)
        #expect(requests[2].path == requests[1].path)
        #expect(requests[2].bodyText == requests[1].bodyText)
    }

    @Test func aSessionWithToolsSavedAndRunAgainSendsTheSameBytes() async throws {
        let shell = try await GeminiShell()
        let reply = #"{"kind": "generate", "text": "Take an umbrella."}"#
        try await shell.server.script([reply, reply])
        let saved = try await shell.run([
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
        let again = try await shell.run(["-c", "set stream off", "-c", "prompt weather.prompt"])
        #expect(again.stderr == "")
        #expect(again.stdout == "Take an umbrella.\n")
        #expect(again.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[0].bodyText.contains(#""functionDeclarations":[{"name":"get_weather""#))
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func anAttachedURLSavedAsMediaSendsTheSameBytes() async throws {
        let shell = try await GeminiShell()
        let reply = #"{"kind": "generate", "text": "A cat."}"#
        try await shell.server.script([reply, reply])
        let saved = try await shell.run([
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
        let again = try await shell.run(["-c", "set stream off", "-c", "prompt media.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(
            requests[0].bodyText.contains(
                #"{"fileData":{"mimeType":"image/png","fileUri":"https://example.com/cat.png"}}"#))
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func anOptionalFieldKeepsTheJSONSchemaPicoschemaWouldMakeNullable() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
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

    /// A `prompt FILE` turn saved: the file's model, system message, `config` (over the
    /// session's settings) and output go into the saved file, so that a new session's dry run
    /// of it prints the request of the first, byte for byte.
    @Test(arguments: [
        (
            """
            ---
            model: googleai/gemini-2.5-flash
            config:
              temperature: 0.2
            input:
              schema:
                name: string
            ---
            {{role "system"}}Be brief.
            {{role "user"}}Hello, {{name}}!
            """,
            """
            ---
            model: googleai/gemini-2.5-flash
            config: {"temperature":0.2,"topK":3}
            ---
            {{role "system"}}Be brief.
            {{role "user"}}Hello, Ann!

            """
        ),
        (
            """
            ---
            model: vertexai/gemini-2.5-pro
            config:
              maxOutputTokens: 300
            output:
              format: json
              schema:
                title: string
                year: integer
            ---
            A book for {{name}}.
            """,
            """
            ---
            model: googleai/gemini-2.5-pro
            config: {"temperature":0.9,"maxOutputTokens":300,"topK":3}
            output:
              format: json
              schema:
                title: string
                year: integer
            ---
            {{role "system"}}Session.
            {{~role "user"}}A book for Ann.

            """
        ),
        (
            "---\noutput:\n  format: json\n---\nJSON for {{name}}.",
            """
            ---
            model: googleai/gemini-3.8-flash
            config: {"temperature":0.9,"topK":3}
            output:
              format: json
            ---
            {{role "system"}}Session.
            {{~role "user"}}JSON for Ann.

            """
        ),
    ])
    func aPromptFileTurnSavedSendsTheSameRequest(file: String, saved: String) async throws {
        let shell = try await GeminiShell()
        try shell.write("in.prompt", file)
        let first = try await shell.run([
            "-c", "set top-k 3", "-c", "set system Session.", "-c", "set temperature 0.9", "-c",
            "prompt --dry-run in.prompt name=Ann", "-c", "set temperature 1", "-c", "prompt save out.prompt",
        ])
        #expect(first.stderr == "")
        #expect(first.status == 0)
        #expect(shell.read("out.prompt") == saved)
        let again = try await shell.run(["-c", "prompt --dry-run out.prompt"])
        #expect(again.stderr == "")
        #expect(again.status == 0)
        #expect(first.stdout.hasPrefix("POST /v1beta/models/"))
        #expect(again.stdout == first.stdout)
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aMissingFolderIsRefusedAndNothingIsMade() async throws {
        let shell = try await GeminiShell()
        let folder = shell.home.appendingPathComponent("missing").path
        let outcome = try await shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save \(folder)/film.prompt",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:3:1: error: prompt save: the folder '\(folder)' does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func aFolderIsRefusedWithOrWithoutForce() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("films"), withIntermediateDirectories: false)
        let outcome = try await shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save films", "-c",
            "prompt save --force films",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                -c:3:1: error: prompt save: 'films' is a folder, not a file
                -c:4:1: error: prompt save: 'films' is a folder, not a file

                """)
    }

    /// An empty name is no file (it said the current folder could not be replaced).
    @Test func anEmptyNameIsAUsageError() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "--json", "-c", "set dry-run on", "-c", "ask Hi", "-c", #"prompt save """#,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:3:1: error: prompt save: needs a file name\n")
        #expect(
            outcome.stdout.split(separator: "\n").last
                == #"{"command":"prompt save \"\"","ok":false,"error":{"kind":"usage","message":"prompt save: needs a file name"}}"#
        )
    }

    @Test func anExistingFileIsKeptWithoutForce() async throws {
        let shell = try await GeminiShell()
        try shell.write("film.prompt", "mine")
        let outcome = try await shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save film.prompt",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:3:1: error: prompt save: film.prompt exists (--force replaces it)\n")
        #expect(shell.read("film.prompt") == "mine")
        let forced = try await shell.run([
            "-c", "set dry-run on", "-c", "ask Hi", "-c", "prompt save --force film.prompt",
        ])
        #expect(forced.stderr == "")
        #expect(
            shell.read("film.prompt") == "---\nmodel: googleai/gemini-3.8-flash\n---\n{{role \"user\"}}Hi\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func nothingAskedYetIsAnErrorAndWritesNothing() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "prompt save film.prompt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:1:1: error: prompt save: nothing asked yet in this session\n")
        #expect(shell.read("film.prompt") == nil)
    }

    /// A message's `{{` is saved escaped (`\{{`, Handlebars' escape), and the saved file sends
    /// the same text back; `\{{` (a backslash before `{{`) cannot be said and is refused.
    @Test func bracesAreSavedEscapedAndSentBackTheSame() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "set dry-run on", "-c", "ask Print {{name}} and {{{x}}} as is", "-c",
            "prompt save film.prompt",
            "-c", "prompt film.prompt",
        ])
        #expect(outcome.status == 0)
        #expect(
            shell.read("film.prompt")
                == "---\nmodel: googleai/gemini-3.8-flash\n---\n{{role \"user\"}}Print \\{{name}} and \\{{{x}}} as is\n"
        )
        let sent = outcome.stdout.components(separatedBy: #""text": "Print {{name}} and {{{x}}} as is""#)
        #expect(sent.count == 3)
        let refused = try await shell.run([
            "-c", "set dry-run on", "-c", #"ask "Print \\{{name}}""#, "-c", "prompt save other.prompt",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == #"-c:3:1: error: prompt save: a message holds '\{{', which a template cannot say"# + "\n")
        #expect(shell.read("other.prompt") == nil)
        #expect(try await shell.server.requests().isEmpty)
    }
}
