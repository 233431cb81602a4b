import Foundation
import SophonTestSupport
import Testing

/// `schema picoschema TEXT` and `schema show --picoschema`: the type syntax, Picoschema and JSON
/// Schema one after the other (docs/prompts.md).
@Suite(.childSlots) struct SchemaPicoschemaTests {
    @Test func picoschemaTextIsShownInAllThreeForms() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", #"schema picoschema "{title: string, year?: integer}""#])
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                type syntax:
                { title: string, year?: integer | null }

                picoschema:
                title: string
                year?: integer

                json schema:
                {
                  "type": "object",
                  "properties": {
                    "title": {
                      "type": "string"
                    },
                    "year": {
                      "type": [
                        "integer",
                        "null"
                      ]
                    }
                  },
                  "required": [
                    "title"
                  ]
                }

                """)
    }

    @Test func schemaShowPicoschemaShowsTheSessionSchema() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"schema { title: string "the title", tags: [{ name: string }], status: "a" | "b" }"#,
            "-c", "schema show --picoschema",
        ])
        #expect(outcome.stderr == "")
        let head = outcome.stdout.components(separatedBy: "\n\njson schema:\n").first
        #expect(
            head == """
                type syntax:
                { title: string "the title", tags: [{ name: string }], status: "a" | "b" }

                picoschema:
                title: string, the title
                tags(array):
                  name: string
                status(enum): [a, b]
                """)
    }

    @Test func whatGeminisSchemaCannotSayIsNotedAndNotShownWrong() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"schema picoschema "{name: string, x: any, scores(object): {(*): number}}""#,
        ])
        #expect(
            outcome.stderr == """
                note: $.properties.scores: dropped "additionalProperties" (not accepted by the Gemini API)
                note: $.properties.scores: an object without properties: the Gemini API rejects OBJECT with no properties

                """)
        let head = outcome.stdout.components(separatedBy: "\n\njson schema:\n").first
        #expect(
            head == """
                type syntax:
                (the type syntax cannot say this schema; use the JSON Schema)

                picoschema:
                (Picoschema cannot say this schema; use the JSON Schema)
                """)
    }
}
