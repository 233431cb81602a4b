import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `ask` and `chat` end to end: the real binary against scripts/fake_gemini.py over HTTP.
@Suite(.childSlots) struct GeminiShellAskTests {
    static let spec = #"schema { title: string, year: integer, tags: [string], status: "draft" | "final" }"#

    @Test func aStructuredAskPrintsTheDecodedJSONAndSendsTheSchemaThatSchemaShowPrints() async throws {
        let shell = try await GeminiShell()
        let shown = try await shell.run(["-c", Self.spec, "-c", "schema show"])
        #expect(shown.status == 0)
        try await shell.server.script([
            #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": \"1965\", \"tags\": [\"sf\"], \"status\": \"final\"}"}"#
        ])
        let asked = try await shell.run(["-c", Self.spec, "-c", "ask Name a book, as JSON"])
        #expect(
            asked.stdout == """
                {
                  "title": "Dune",
                  "year": 1965,
                  "tags": [
                    "sf"
                  ],
                  "status": "final"
                }

                """)
        #expect(asked.stderr == "coerced: $.year: string \"1965\" read as number 1965\n")
        #expect(asked.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.map(\.path) == ["/v1beta/models/gemini-3.8-flash:generateContent"])
        let config = requests.first?.body["generationConfig"]
        #expect(config?["responseSchema"] == (try JSONValue(parsing: shown.stdout)))
        #expect(config?["responseMimeType"] == .string("application/json"))
        #expect(
            requests.first?.body["contents"]
                == (try JSONValue(
                    parsing: #"[{"role": "user", "parts": [{"text": "Name a book, as JSON"}]}]"#)))
    }

    @Test func aTextAskWithStreamOnPrintsEachChunkAsTheServerSendsIt() async throws {
        let shell = try await GeminiShell()
        // The server holds chunk 2 until released, and chunk 3 likewise: what the shell
        // printed before each release can only have come from the chunks sent so far.
        try await shell.server.script([
            #"{"kind": "generate", "chunks": ["First chunk. ", "Second chunk. ", "Third."], "gated": true}"#
        ])
        let running = try shell.start(["-c", "set stream on", "-c", "ask Tell me something"])
        #expect(await running.readStdout(until: "First chunk. ") == "First chunk. ")
        try await shell.server.release(chunk: 1)
        #expect(await running.readStdout(until: "Second chunk. ") == "First chunk. Second chunk. ")
        try await shell.server.release(chunk: 2)
        let outcome = await running.finish()
        #expect(outcome.stdout == "First chunk. Second chunk. Third.\n")
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        #expect(
            try await shell.server.requests().map(\.path) == [
                "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
            ])
    }

    @Test func chatTurnTwoSendsTheSchemaAndBothEarlierTurns() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            #"{"kind": "generate", "text": "{\"title\": \"Dune\", \"year\": 1965, \"tags\": [\"sf\"], \"status\": \"final\"}", "thoughtSignature": "c2lnbmF0dXJlLTE="}"#,
            #"{"kind": "generate", "text": "{\"title\": \"Dune Messiah\", \"year\": 1969, \"tags\": [], \"status\": \"final\"}"}"#,
        ])
        let outcome = try await shell.run([
            "-c", Self.spec, "-c", "chat Name a book", "-c", "chat And its sequel?", "-c",
            "expect ${last.year} == 1969",
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasSuffix("1 passed, 0 failed\n"))
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        let schema = requests[0].body["generationConfig"]?["responseSchema"]
        #expect(schema != nil)
        #expect(requests[1].body["generationConfig"]?["responseSchema"] == schema)
        #expect(requests[1].body["generationConfig"]?["responseMimeType"] == .string("application/json"))
        let expected = try JSONValue(
            parsing: #"""
                [{"role": "user", "parts": [{"text": "Name a book"}]},
                 {"role": "model", "parts": [
                    {"text": "{\"title\": \"Dune\", \"year\": 1965, \"tags\": [\"sf\"], \"status\": \"final\"}"},
                    {"text": "", "thoughtSignature": "c2lnbmF0dXJlLTE="}]},
                 {"role": "user", "parts": [{"text": "And its sequel?"}]}]
                """#)
        #expect(requests[1].body["contents"] == expected)
    }
}
