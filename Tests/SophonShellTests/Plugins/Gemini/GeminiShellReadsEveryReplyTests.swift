import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// The client reads every reply, replays stay aligned and counts are whole (issue 14, points
/// 17-23): the real binary against scripts/fake_gemini.py over HTTP.
@Suite(.childSlots) struct GeminiShellReadsEveryReplyTests {
    static let first = #"{"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}]}"#
    static let last =
        #"{"candidates":[{"content":{"parts":[{"text":"lo"}],"role":"model"},"finishReason":"STOP"}]}"#

    /// SSE framing: a leading BOM, an empty `data:` event, comments, `event`/`id`/`retry`
    /// fields and CR line ends between the chunks of a streamed answer lose nothing.
    @Test func aStreamWithEveryFramingRuleAnswersWhole() async throws {
        let shell = try await GeminiShell()
        let raw = [
            "\u{FEFF}data: \(Self.first)\r\n\r\n", "data:\r\n\r\n", ": keep-alive\n\n",
            "event: message\nid: 7\nretry: 1000\n\n", "data\r\r", "data: \(Self.last)\r\r",
        ]
        let events = raw.map { JSONValue.object([JSONMember("raw", .string($0))]).compactText }
        try await shell.server.script([#"{"kind": "sse", "events": [\#(events.joined(separator: ","))]}"#])
        let asked = try await shell.run(["-c", "ask hi"])
        #expect(asked.stdout == "Hello\n")
        #expect(asked.stderr == "")
        #expect(asked.status == 0)
    }

    /// A page token that comes back unchanged ends the listing with a warning.
    @Test func modelsLiveStopsOnARepeatedPageToken() async throws {
        let shell = try await GeminiShell()
        _ = try await shell.server.control(
            "POST", "/_sophon/script",
            body: #"""
                {"reset": true, "modelPages": [
                  {"models": [{"name": "models/gemini-3.8-flash", "displayName": "Gemini 3.8 Flash",
                    "inputTokenLimit": 1048576, "outputTokenLimit": 65536}], "nextPageToken": "t1"},
                  {"models": [{"name": "models/gemini-2.5-pro", "displayName": "Gemini 2.5 Pro",
                    "inputTokenLimit": 1048576, "outputTokenLimit": 65536}], "nextPageToken": "t1"}]}
                """#)
        let listed = try await shell.run(["-c", "models --live"])
        #expect(
            listed.stdout.hasPrefix(
                "gemini-3.8-flash  Gemini 3.8 Flash  in 1048576 / out 65536  (gemini38Flash)\n"
                    + "gemini-2.5-pro  Gemini 2.5 Pro  in 1048576 / out 65536  (gemini25Pro)\nnot served:\n"))
        #expect(
            listed.stderr
                == "warning: the server sent page token 't1' again after 2 pages; the listing stops there\n")
        #expect(listed.status == 0)
        #expect(
            try await shell.server.paths() == [
                "/v1beta/models?pageSize=1000", "/v1beta/models?pageSize=1000&pageToken=t1",
            ])
    }

    /// `set thinking low` on a budget-only model is sent as a budget, with a notice; budget 0
    /// on a model that cannot turn thinking off is refused before sending.
    @Test func thinkingIsFittedToTheModelBeforeSending() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hi"}"#])
        let asked = try await shell.run([
            "-c", "set model gemini-2.5-flash", "-c", "set stream off", "-c", "set thinking low", "-c",
            "ask hi",
        ])
        #expect(asked.stdout == "Hi\n")
        #expect(
            asked.stderr.hasSuffix(
                "note: gemini-2.5-flash takes a thinking budget, not a level: thinking low sent as budget 1024\n"
            ))
        #expect(asked.status == 0)
        let sent = try await shell.server.requests()
        #expect(sent.count == 1)
        #expect(
            sent.first?.body["generationConfig"]?["thinkingConfig"]
                == (try JSONValue(parsing: #"{"thinkingBudget": 1024}"#)))

        try await shell.server.script([])
        let refused = try await shell.run([
            "-c", "set model gemini-2.5-pro", "-c", "set thinking 0", "-c", "ask hi",
        ])
        #expect(refused.stdout == "")
        #expect(
            refused.stderr.hasSuffix(
                "-c:3:1: error: thinking: gemini-2.5-pro cannot turn thinking off (budget 0); "
                    + "use a budget of 128...32768 or -1 (automatic)\n"))
        #expect(refused.status == 1)
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `tokens` counts the whole request: system instruction and schema included, through the
    /// `generateContentRequest` form.
    @Test func tokensCountsWhatTheCallWouldSend() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([])
        let counted = try await shell.run([
            "-c", "set system Be brief", "-c", "schema { name: string }", "-c", "tokens How many tokens",
        ])
        #expect(counted.stdout == "5\n")
        #expect(counted.status == 0)
        let sent = try await shell.server.requests()
        #expect(sent.map(\.path) == ["/v1beta/models/gemini-3.8-flash:countTokens"])
        #expect(
            sent.first?.body
                == (try JSONValue(
                    parsing: #"""
                        {"generateContentRequest": {"model": "models/gemini-3.8-flash",
                          "contents": [{"role": "user", "parts": [{"text": "How many tokens"}]}],
                          "systemInstruction": {"parts": [{"text": "Be brief"}]},
                          "generationConfig": {"responseMimeType": "application/json",
                            "responseSchema": {"type": "OBJECT", "properties": {"name": {"type": "STRING"}},
                              "required": ["name"], "propertyOrdering": ["name"]}}}}
                        """#)))
    }

    /// `schema show json-schema` prints JSON Schema keywords only: no `propertyOrdering`.
    @Test func jsonSchemaHasNoPropertyOrdering() async throws {
        let shell = try await GeminiShell()
        let shown = try await shell.run([
            "-c", "schema { title: string, year?: integer }", "-c", "schema show json-schema",
        ])
        #expect(
            shown.stdout == """
                {
                  "type": "object",
                  "properties": {
                    "title": {
                      "type": "string"
                    },
                    "year": {
                      "type": "integer"
                    }
                  },
                  "required": [
                    "title"
                  ]
                }

                """)
        #expect(shown.status == 0)
    }

    /// `extract --schema` reads "N/A" for an optional string as the lenient decoder does: absent.
    @Test func extractReadsANullWordInAnOptionalStringAsAbsent() async throws {
        let shell = try await GeminiShell()
        let extracted = try await shell.run([
            "extract", "--schema", "{ name: string, nick?: string }", #"{"name": "Ada", "nick": "N/A"}"#,
        ])
        #expect(extracted.stdout == "{\n  \"name\": \"Ada\"\n}\n")
        #expect(extracted.stderr == "coerced: $.nick: string \"N/A\" removed (read as absent)\n")
        #expect(extracted.status == 0)
    }

    /// The extractor keeps a bare word between quoted strings as its own element.
    @Test func extractKeepsABareWordApartFromItsNeighbours() async throws {
        let shell = try await GeminiShell()
        let extracted = try await shell.run(["extract", #"["alpha", "beta", gamma, "delta"]"#])
        #expect(extracted.stdout == "[\n  \"alpha\",\n  \"beta\",\n  \"gamma\",\n  \"delta\"\n]\n")
        #expect(extracted.stderr == "repair: read the unquoted word 'gamma' as a string at offset 18\n")
        #expect(extracted.status == 0)
    }

    /// A replayed request that differs from its entry fails alone: the next request is compared
    /// with the next entry.
    @Test func aReplayMismatchConsumesItsEntry() async throws {
        let shell = try await GeminiShell()
        let tape = shell.home.appendingPathComponent("two.tape").path
        try await shell.server.script([
            #"{"kind": "generate", "text": "One"}"#, #"{"kind": "generate", "text": "Two"}"#,
        ])
        let recorded = try await shell.run([
            "--record", tape, "-c", "set stream off", "-c", "ask one", "-c", "ask two",
        ])
        #expect(recorded.stdout == "One\nTwo\n")
        shell.server.stop()
        let replayed = try await shell.run([
            "--replay", tape, "-c", "set stream off", "-c", "ask uno", "-c", "ask two",
        ])
        #expect(replayed.stdout == "Two\n")
        #expect(
            replayed.stderr
                == "-c:2:1: error: request 1: body differs at $.contents[0].parts[0].text: recorded \"one\", got \"uno\"\n"
        )
        #expect(replayed.status == 1)
    }
}
