import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `ask` with a schema and tools over HTTP (docs/commands.md, "Served calls"): every request
/// asks for the schema's JSON and carries the tools; a reply of only function calls is the
/// calls; the final answer decodes with the schema, or fails with `decodingFailed`.
@Suite(.childSlots) struct StructuredToolTests {
    static let setup = [
        "-c", "schema { city: string, temp_c: int }", "-c",
        #"tool get_weather { city: string } "Current weather for one city""#,
    ]
    static let call =
        #"{"kind": "generate", "functionCalls": [{"id": "fc-1", "name": "get_weather", "args": {"city": "Paris"}}]}"#

    @Test func callsAreTheResultAndTheAnswerDecodesWithTheSchema() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([
            Self.call,
            #"{"kind": "generate", "text": "```json\n{\"city\": \"Paris\", \"temp_c\": \"18\"}\n```"}"#,
        ])
        let outcome = try await shell.run(
            ["-c", "set output raw"] + Self.setup + [
                "-c", "ask Weather in Paris?", "-c", #"tool-reply get_weather {"temp_c": 18}"#, "-c",
                "expect ${last.temp_c} == 18",
            ])
        #expect(
            outcome.stdout == """
                {"functionCalls":[{"id":"fc-1","name":"get_weather","args":{"city":"Paris"}}]}
                {"city":"Paris","temp_c":18}
                1 passed, 0 failed

                """)
        #expect(outcome.stderr == "coerced: $.temp_c: string \"18\" read as number 18\n")
        #expect(outcome.status == 0)
        let requests = try await shell.server.requests()
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.body["generationConfig"]?["responseMimeType"] == .string("application/json"))
            #expect(
                request.body["generationConfig"]?["responseSchema"]?["required"]
                    == (try JSONValue(parsing: #"["city", "temp_c"]"#)))
            #expect(request.body["tools"]?[0]?["functionDeclarations"]?[0]?["name"] == .string("get_weather"))
        }
    }

    @Test func aFinalAnswerWithoutJSONIsDecodingFailed() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([Self.call, #"{"kind": "generate", "text": "It is warm."}"#])
        let outcome = try await shell.run(
            ["--json"] + Self.setup + ["-c", "ask Weather in Paris?", "-c", #"tool-reply {"temp_c": 18}"#])
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)  // `schema` and `tool` print `{"command", "ok": true}` lines too.
        let calls = try JSONValue(parsing: lines[2])
        #expect(calls["result"]?["functionCalls"]?[0]?["name"] == .string("get_weather"))
        let failure = try JSONValue(parsing: lines[3])
        #expect(failure["ok"] == .bool(false))
        #expect(failure["error"]?["kind"] == .string("decodingFailed"))
        #expect(outcome.status == 1)
    }
}
