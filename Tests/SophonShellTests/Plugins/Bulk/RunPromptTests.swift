import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `run INPUT -o OUTPUT --prompt FILE` (PRODUCT §12, docs/prompts.md): each line's object is a
/// prompt file's input, through the one bulk runner; the real binary against
/// scripts/fake_gemini.py.
@Suite(.childSlots) struct RunPromptTests {
    static let file = """
        ---
        model: googleai/gemini-3.8-flash
        config:
          temperature: 0
        input:
          schema:
            title: string
            year?: integer
        output:
          format: json
          schema:
            genre: string
        ---
        {{role "system"}}You shelve books.
        {{role "user"}}Which genre is {{title}}{{#if year}} ({{year}}){{/if}}?
        """

    /// The body `prompt FILE` and `run --prompt FILE` send for `question`.
    static func body(_ question: String) throws -> JSONValue {
        try JSONValue(
            parsing: #"""
                {"contents":[{"role":"user","parts":[{"text":"\#(question)"}]}],
                 "systemInstruction":{"parts":[{"text":"You shelve books.\n"}]},
                 "generationConfig":{"temperature":0,"responseMimeType":"application/json",
                  "responseSchema":{"type":"OBJECT","properties":{"genre":{"type":"STRING"}},
                   "required":["genre"],"propertyOrdering":["genre"]}}}
                """#)
    }

    @Test func eachLineIsTheInputOfThePromptFile() async throws {
        let shell = try await GeminiShell()
        try shell.write("shelf.prompt", Self.file)
        try shell.write(
            "books.jsonl",
            #"{"key": "dune", "title": "Dune", "year": 1965}"# + "\n" + #"{"title": "Emma"}"# + "\n")
        try await shell.server.script([
            #"{"kind": "generate", "text": "{\"genre\": \"science fiction\"}"}"#,
            #"{"kind": "generate", "text": "{\"genre\": \"novel\"}"}"#,
        ])
        let outcome = try await shell.run([
            "-c", "set model gemini-2.5-pro", "-c",
            "run books.jsonl -o shelf.jsonl --prompt shelf.prompt --jobs 1",
        ])
        #expect(
            outcome.stderr
                == "run: 2/2 done, 0 failed, 0 reused (same request); cost $0.0000585; wrote shelf.jsonl\n")
        #expect(outcome.status == 0)
        let usage = #""usage":{"promptTokens":4,"outputTokens":7,"thoughtsTokens":0,"totalTokens":11}"#
        #expect(
            shell.read("shelf.jsonl") == """
                {"key":"dune","ok":true,"result":{"genre":"science fiction"},"model":"gemini-3.8-flash",\(usage)}
                {"key":"line-2","ok":true,"result":{"genre":"novel"},"model":"gemini-3.8-flash",\(usage)}

                """)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        // The file's model, not the session's.
        #expect(
            requests.map(\.path)
                == Array(repeating: "/v1beta/models/gemini-3.8-flash:generateContent", count: 2))
        #expect(requests[0].body == (try Self.body("Which genre is Dune (1965)?")))
        #expect(requests[1].body == (try Self.body("Which genre is Emma?")))
    }

    @Test func aLineSendsWhatPromptFileSendsForTheSameInput() async throws {
        let shell = try await GeminiShell()
        try shell.write("shelf.prompt", Self.file)
        try shell.write("one.jsonl", #"{"key": 1, "title": "Dune", "year": 1965}"# + "\n")
        let reply = #"{"kind": "generate", "text": "{\"genre\": \"science fiction\"}"}"#
        try await shell.server.script([reply, reply])
        let asked = try await shell.run(["-c", "prompt shelf.prompt title=Dune year=1965"])
        #expect(asked.stderr == "")
        let ran = try await shell.run(["run", "one.jsonl", "-o", "out.jsonl", "--prompt", "shelf.prompt"])
        #expect(ran.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[1].path == requests[0].path)
        #expect(requests[1].bodyText == requests[0].bodyText)
    }

    @Test func linesFailingTheInputSchemaAreListedAndNothingIsSent() async throws {
        let shell = try await GeminiShell()
        try shell.write("shelf.prompt", Self.file)
        try shell.write(
            "books.jsonl",
            [
                #"{"key": "a", "title": "Dune"}"#, #"{"key": "b", "title": 3}"#, "[1]",
                #"{"key": "c", "title": "Emma", "year": "soon"}"#, #"{"key": "a", "title": "Dune"}"#,
            ].joined(separator: "\n") + "\n")
        let outcome = try await shell.run([
            "run", "books.jsonl", "-o", "out.jsonl", "--prompt", "shelf.prompt",
        ])
        #expect(
            outcome.stderr == """
                error: books.jsonl: 4 bad lines; nothing was sent
                books.jsonl:2: shelf.prompt: input $.title: expected string, got number 3
                books.jsonl:3: expected a JSON object, got array
                books.jsonl:4: shelf.prompt: input $.year: expected integer, got string "soon"
                books.jsonl:5: duplicate key 'a' (first on line 1)

                """)
        #expect(outcome.status == 1)
        #expect(try await shell.server.requests().isEmpty)
        #expect(shell.read("out.jsonl") == nil)
    }

    @Test func aPromptFileThatDoesNotRenderFailsAtItsLocationAndSendsNothing() async throws {
        let shell = try await GeminiShell()
        try shell.write("bad.prompt", "---\nmodel: x\n---\nHi {{shout title}}")
        try shell.write("books.jsonl", #"{"title": "Dune"}"# + "\n" + #"{"title": "Emma"}"# + "\n")
        let outcome = try await shell.run(["run", "books.jsonl", "-o", "out.jsonl", "--prompt", "bad.prompt"])
        #expect(outcome.stderr == "error: run: bad.prompt:4:4: unknown helper 'shout'\n")
        #expect(outcome.status == 1)
        let missing = try await shell.run([
            "run", "books.jsonl", "-o", "out.jsonl", "--prompt", "none.prompt",
        ])
        #expect(
            missing.stderr
                == "error: run: none.prompt:1:1: cannot open 'none.prompt': No such file or directory\n")
        #expect(missing.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }
}
