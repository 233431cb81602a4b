import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `prompt FILE`: the real binary against scripts/fake_gemini.py over HTTP, checking the request
/// the server saw (docs/prompts.md, PRODUCT §12).
@Suite(.childSlots) struct PromptAskTests {
    static let file = """
        ---
        model: googleai/gemini-3.8-flash
        config:
          temperature: 0.2
          maxOutputTokens: 200
          topK: 5
          stopSequences: [END]
        input:
          schema:
            title: string
            year?: integer
          default:
            year: 1965
        output:
          format: json
          schema:
            title: string
            year: integer
        ---
        {{role "system"}}You are a librarian.
        {{role "user"}}Tell me about {{title}} ({{year}}).
        """

    @Test func promptFileSendsSystemContentsConfigAndSchema() async throws {
        let shell = try await GeminiShell()
        try shell.write("book.prompt", Self.file)
        try await shell.server.script([
            #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": 1965}"}"#
        ])
        let outcome = try await shell.run([
            "-c", "prompt book.prompt title=Dune", "-c", "expect ${last.year} == 1965",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("1 passed, 0 failed\n"))
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(requests[0].path == "/v1beta/models/gemini-3.8-flash:generateContent")
        let expected = try JSONValue(
            parsing: #"""
                {"contents":[{"role":"user","parts":[{"text":"Tell me about Dune (1965)."}]}],
                 "systemInstruction":{"parts":[{"text":"You are a librarian.\n"}]},
                 "generationConfig":{"stopSequences":["END"],"maxOutputTokens":200,"temperature":0.2,"topK":5,
                  "responseMimeType":"application/json",
                  "responseSchema":{"type":"OBJECT","properties":{"title":{"type":"STRING"},"year":{"type":"INTEGER"}},
                   "required":["title","year"],"propertyOrdering":["title","year"]}}}
                """#)
        #expect(requests[0].body == expected)
    }

    @Test func theLogHoldsWhatTheFileSentNotTheSessions() async throws {
        let shell = try await GeminiShell()
        try shell.write("book.prompt", Self.file)
        try await shell.server.script([
            #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": 1965}"}"#
        ])
        let outcome = try await shell.run([
            "-c", "set system Be silly.", "-c", "set temperature 1.5", "-c", "prompt book.prompt title=Dune",
        ])
        #expect(outcome.stderr == "")
        let shown = try await shell.run(["--json", "-c", "logs show 1"])
        let line = try JSONValue(parsing: shown.stdout)
        let logged = try #require(line["result"])
        #expect(logged["system"] == .string("You are a librarian.\n"))
        #expect(logged["settings"]?["temperature"] == .double(0.2))
        #expect(logged["settings"]?["maxTokens"] == .integer(200))
        #expect(logged["schema"]?["required"] == .array([.string("title"), .string("year")]))
    }

    @Test func inputSchemaViolationNamesTheFieldAndSendsNothing() async throws {
        let shell = try await GeminiShell()
        try shell.write("book.prompt", Self.file)
        let outcome = try await shell.run(["-c", #"prompt book.prompt title=Dune year="soon""#])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:1: error: prompt: book.prompt: input $.year: expected integer, got string \"soon\"\n"
        )
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `config`'s seed and penalties are sent too, each checked by `set`'s rule (PRODUCT §12:
    /// "temperature, maxOutputTokens, topP, topK, stopSequences, ..."); other keys are not sent.
    @Test func seedAndPenaltiesGoInTheGenerationConfig() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "seed.prompt",
            "---\nconfig:\n  seed: 7\n  presencePenalty: 0.5\n  frequencyPenalty: -0.5\n  custom: x\n---\nHi")
        let outcome = try await shell.run(["-c", "prompt seed.prompt"])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(
            requests[0].body["generationConfig"]?.compactText
                == #"{"seed":7,"presencePenalty":0.5,"frequencyPenalty":-0.5}"#)
    }

    /// A whole number written as a YAML float (`1e2`, `100.0`, which Dotprompt's JavaScript
    /// reads as the number 100) goes to an integer field as that whole number; `null` leaves
    /// a setting unset, and an empty `config:` sets none.
    @Test func aWholeNumberWrittenAsAFloatIsSentAsTheInteger() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "whole.prompt",
            "---\nconfig: {maxOutputTokens: 1e2, topK: 40.0, seed: -2E0, temperature: ~}\n---\nHi")
        try shell.write("empty.prompt", "---\nconfig:\n#  temperature: 0.5\n---\nHi")
        let outcome = try await shell.run(["-c", "prompt whole.prompt", "-c", "prompt empty.prompt"])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(
            requests[0].body["generationConfig"]?.compactText
                == #"{"maxOutputTokens":100,"topK":40,"seed":-2}"#)
        #expect(requests[1].body["generationConfig"] == nil)
    }

    @Test func outputFormatJSONWithoutASchemaAsksForJSON() async throws {
        // Dotprompt's `output.format: json` alone: the answer is JSON (it was sent as plain text).
        let shell = try await GeminiShell()
        try shell.write("j.prompt", "---\noutput:\n  format: json\n---\nList two colours.")
        try await shell.server.script([#"{"kind": "generate", "text": "{\"colours\": [\"red\", \"blue\"]}"}"#]
        )
        let outcome = try await shell.run([
            "-c", "prompt j.prompt", "-c", "expect ${last.colours[1]} == blue",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("1 passed, 0 failed\n"))
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        #expect(
            requests[0].body["generationConfig"]?.compactText == #"{"responseMimeType":"application/json"}"#)
    }

    @Test func theFileModelGoesForThisCallOnlyWithItsPrefixDropped() async throws {
        let shell = try await GeminiShell()
        try shell.write("pro.prompt", "---\nmodel: vertexai/gemini-2.5-pro\n---\nHi")
        try await shell.server.script([
            #"{"kind": "generate", "text": "A"}"#, #"{"kind": "generate", "text": "B"}"#,
        ])
        let outcome = try await shell.run([
            "-c", "set stream off", "-c", "prompt pro.prompt", "-c", "ask Again", "-c", "show model",
        ])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(
            try await shell.server.paths() == [
                "/v1beta/models/gemini-2.5-pro:generateContent",
                "/v1beta/models/gemini-3.8-flash:generateContent",
            ])
        #expect(outcome.stdout.hasSuffix("gemini-3.8-flash\n"))
    }

    @Test func dryRunPrintsTheRequestAndJSONPrintsTheAnswerAsData() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "hi.prompt",
            "---\nconfig:\n  temperature: 0.2\n---\n{{role \"system\"}}Be brief.\n{{role \"user\"}}Hi {{name}}"
        )
        let dry = try await shell.run(["-c", "set stream off", "-c", "prompt --dry-run hi.prompt name=Ann"])
        #expect(dry.stderr == "")
        #expect(
            dry.stdout == """
                POST /v1beta/models/gemini-3.8-flash:generateContent
                {
                  "contents": [
                    {
                      "role": "user",
                      "parts": [
                        {
                          "text": "Hi Ann"
                        }
                      ]
                    }
                  ],
                  "systemInstruction": {
                    "parts": [
                      {
                        "text": "Be brief.\\n"
                      }
                    ]
                  },
                  "generationConfig": {
                    "temperature": 0.2
                  }
                }

                """)
        #expect(try await shell.server.requests().isEmpty)
        try await shell.server.script([#"{"kind": "generate", "text": "Hello, Ann."}"#])
        let json = try await shell.run(["--json", "-c", "set stream off", "-c", "prompt hi.prompt name=Ann"])
        #expect(json.stderr == "")
        #expect(json.status == 0)
        let line = try #require(json.stdout.split(separator: "\n").last)
        #expect(try JSONValue(parsing: String(line))["result"] == .string("Hello, Ann."))
    }

    /// A `NAME=VALUE` the file's input schema does not declare (Picoschema's objects are closed)
    /// is refused with the closest declared name before anything is sent: a typo of an optional
    /// field was dropped unseen and the prompt rendered without it. A file without an input
    /// schema takes any name.
    @Test func aTypedNameTheInputSchemaDoesNotDeclareIsRefused() async throws {
        let shell = try await GeminiShell()
        try shell.write("book.prompt", Self.file)
        try shell.write("free.prompt", "About {{topic}}.")
        let outcome = try await shell.run([
            "-c", "prompt book.prompt title=Dune yaer=1966", "-c", "prompt book.prompt titel=Dune",
            "-c", "prompt --dry-run free.prompt topic=sand extra=1",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                -c:1:1: error: prompt: book.prompt: input $.yaer: not in the input schema (did you mean 'year'?)
                -c:2:1: error: prompt: book.prompt: input $.titel: not in the input schema (did you mean 'title'?)

                """)
        #expect(
            outcome.stdout.hasPrefix("POST /v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse\n"))
        #expect(outcome.stdout.contains(#""text": "About sand.""#))
        #expect(try await shell.server.requests().isEmpty)
    }

    /// A flag given twice is a usage error naming it (the one option parser's rule), `--json`
    /// too, which the shell takes out of the words before the command reads them.
    @Test func aFlagGivenTwiceIsAUsageErrorNamingIt() async throws {
        let shell = try await GeminiShell()
        try shell.write("hi.prompt", "Hi")
        let outcome = try await shell.run([
            "-c", "prompt --dry-run --dry-run hi.prompt", "-c", "prompt --json --json hi.prompt",
            "-c", "prompt save --force --force hi.prompt", "-c", "prompt --dry-run hi.prompt name=A name=B",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                -c:1:1: error: prompt: option '--dry-run' is given twice
                -c:2:1: error: prompt: option '--json' is given twice
                -c:3:1: error: prompt save: option '--force' is given twice
                -c:4:1: error: prompt: 'name' is given twice

                """)
        #expect(
            outcome.stdout
                == #"{"command":"prompt --json --json hi.prompt","ok":false,"error":{"kind":"usage","message":"prompt: option '--json' is given twice"}}"#
                + "\n")
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("hi.prompt") == "Hi")
    }

    /// A first word near `render` or `save` that names no file is a usage error with "did you
    /// mean", as `cache crate` is; a file of that name is a prompt file.
    @Test func aMisspeltSubcommandIsAUsageErrorWithDidYouMean() async throws {
        let shell = try await GeminiShell()
        try shell.write("hi.prompt", "Hi")
        let usage =
            "usage: prompt [--dry-run] [--json] FILE [NAME=VALUE...] [--data JSON|@FILE] | prompt save [--force] FILE | "
            + "prompt render FILE [--data JSON|@FILE] [--options JSON|@FILE] [--schemas JSON|@FILE] [--tools JSON|@FILE]"
        let outcome = try await shell.run([
            "-c", "prompt rendr hi.prompt", "-c", "prompt --dry-run sav hi.prompt", "-c", "prompt rendr",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr == """
                -c:1:1: error: \(usage) (did you mean 'render'?)
                -c:2:1: error: \(usage) (did you mean 'save'?)
                -c:3:1: error: \(usage) (did you mean 'render'?)

                """)
        let json = try await shell.run(["--json", "prompt", "rendr", "hi.prompt"])
        #expect(
            json.stdout
                == #"{"command":"prompt rendr hi.prompt","ok":false,"error":{"kind":"usage","message":""#
                + usage + #" (did you mean 'render'?)"}}"# + "\n")
        try shell.write("rendr", "Hi from a file named rendr")
        let file = try await shell.run(["-c", "prompt --dry-run rendr"])
        #expect(file.stderr == "")
        #expect(file.status == 0)
        #expect(file.stdout.contains(#""text": "Hi from a file named rendr""#))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func anOutputSchemaGeminiCannotSayWhollyIsSentWithNotes() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "n.prompt",
            "---\noutput:\n  schema:\n    name: string\n    tags(object):\n      (*): string\n      main: string\n---\nHi"
        )
        let outcome = try await shell.run(["-c", "prompt --dry-run n.prompt"])
        #expect(
            outcome.stderr
                == #"note: n.prompt: output $.properties.tags: dropped "additionalProperties" (not accepted by the Gemini API)"#
                + "\n")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains(#""responseSchema": {"#))
    }

    @Test func mediaGoesAsFileDataOrInlineData() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "look.prompt",
            #"Compare {{media url="https://e.com/a.png" contentType="image/png"}} and {{media url="data:image/gif;base64,R0lG"}}"#
        )
        try await shell.server.script([#"{"kind": "generate", "text": "Same."}"#])
        let outcome = try await shell.run(["-c", "set stream off", "-c", "prompt look.prompt"])
        #expect(outcome.stderr == "")
        #expect(outcome.stdout == "Same.\n")
        let requests = try await shell.server.requests()
        try #require(requests.count == 1)
        let expected = try JSONValue(
            parsing: #"""
                {"contents":[{"role":"user","parts":[{"text":"Compare "},
                 {"fileData":{"mimeType":"image/png","fileUri":"https://e.com/a.png"}},{"text":" and "},
                 {"inlineData":{"mimeType":"image/gif","data":"R0lG"}}]}]}
                """#)
        #expect(requests[0].body == expected)
    }

    @Test(arguments: [
        (
            #"Hi {{media url="http://e.com/a.png"}}"#,
            "look.prompt: media 'http://e.com/a.png' must be an https:// URL or a base64 data: URL"
        ),
        (
            #"Hi {{section "notes"}}"#,
            #"look.prompt: only text and media parts can be sent, not {"metadata":{"purpose":"notes","pending":true}}"#
        ),
        (
            #"{{role "user"}}Hi{{role "assistant"}}Hello"#,
            "look.prompt: a message of role 'assistant' cannot be sent; the roles are user, model, system and tool"
                + " (Gemini's name for it is 'model')"
        ),
        (
            #"{{role "usr"}}Hi"#,
            "look.prompt: a message of role 'usr' cannot be sent; the roles are user, model, system and tool"
                + " (did you mean 'user'?)"
        ),
    ])
    func mediaThatCannotBeSentIsAnErrorAndSendsNothing(file: String, message: String) async throws {
        let shell = try await GeminiShell()
        try shell.write("look.prompt", file)
        let outcome = try await shell.run(["-c", "prompt look.prompt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:1:1: error: prompt: \(message)\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    /// Bad input (issue 26): the error names FILE:LINE:COL, exit 1, nothing sent.
    @Test(arguments: [
        ("---\nmodel: [a\n---\nHi", "bad.prompt:3:1: YAML: did not find expected ',' or ']'"),
        ("---\nmodel: x\n---\nHi {{nope 1}}", "bad.prompt:4:4: unknown helper 'nope'"),
        ("---\nmodel: x\n---\nHi {{> missing}}", "bad.prompt:4:4: unknown partial 'missing'"),
        (
            "---\ninput:\n  schema:\n    a: strang\n---\nHi",
            "bad.prompt:4:8: Picoschema: unknown type 'strang'"
        ),
        ("---\nmodel: x\n---\n{{#if a}}x{{/if}}", "bad.prompt: renders to no message to send"),
        (
            "---\nmodel: x\nHi",
            "bad.prompt:1:1: the frontmatter opened by '---' on line 1 is not closed: no later line is '---'"
        ),
        (
            "---\nconfig:\n  temperature: hot\n---\nHi",
            "bad.prompt:3:16: config.temperature: expected a number, got 'hot'"
        ),
        (
            "---\nconfig:\n  topP: 1.5\n---\nHi",
            "bad.prompt:3:9: config.topP: expected a number in 0...1, got '1.5'"
        ),
        (
            "---\nconfig: {topK: 2.5}\n---\nHi",
            "bad.prompt:2:16: config.topK: expected a whole number in 1...2147483647, got '2.5'"
        ),
        (
            "---\nconfig:\n  presencePenalty: 2\n---\nHi",
            "bad.prompt:3:20: config.presencePenalty: expected a number in -2...2 (2 itself excluded), got '2'"
        ),
        (
            "---\nconfig:\n  stopSequences: END\n---\nHi",
            "bad.prompt:3:18: config.stopSequences: expected a list of strings, got 'END'"
        ),
        (
            "---\nconfig: {temperature: \"0.5\"}\n---\nHi",
            "bad.prompt:2:23: config.temperature: expected a number, got the quoted string '0.5'"
        ),
        (
            "---\nconfig:\n  stopSequences: []\n---\nHi",
            "bad.prompt:3:18: config.stopSequences: expected a list of 1 to 5 strings, got '[]'"
        ),
        (
            "---\nconfig: {temperature: .nan}\n---\nHi",
            "bad.prompt:2:23: config.temperature: expected a number, got '.nan' (not a number; JSON cannot send it)"
        ),
        (
            "---\nconfig:\n  seed: &s .NaN\n---\nHi",
            "bad.prompt:3:9: config.seed: expected a number, got '.NaN' (not a number; JSON cannot send it)"
        ),
        (
            "---\nconfig:\n  temperature: .inf\n---\nHi",
            "bad.prompt:3:16: config.temperature: expected a number in 0...2, got '.inf'"
        ),
        (
            "---\nconfig:\n  maxOutputTokens: 2.5e0 # tokens\n---\nHi",
            "bad.prompt:3:20: config.maxOutputTokens: expected a whole number of tokens in 1...2147483647, got '2.5e0'"
        ),
    ])
    func badInputNamesWhereAndSendsNothing(file: String, message: String) async throws {
        let shell = try await GeminiShell()
        try shell.write("bad.prompt", file)
        let outcome = try await shell.run(["-c", "prompt bad.prompt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "-c:1:1: error: prompt: \(message)\n")
        #expect(try await shell.server.requests().isEmpty)
    }
}
