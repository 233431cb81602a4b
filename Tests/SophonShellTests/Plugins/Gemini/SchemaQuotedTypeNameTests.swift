import Foundation
import SophonTestSupport
import Testing

/// `schema { "title": "string" }` (a JSON Schema habit) is kept as a one-value enum, as written,
/// with a warning that gives the fix (issue 25, point 7).
@Suite(.childSlots) struct SchemaQuotedTypeNameTests {
    @Test func quotedTypeNamesWarnAndTheSchemaIsUnchanged() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"schema { "title": "string", "year": "integer", tags: ["string"], ok: "yes" }"#,
            "-c", "schema show",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr == """
                warning: schema: title: "string" is an enum of the one value "string"; for a type \
                write title: string (no quotes), or give JSON Schema as schema @file.json
                warning: schema: year: "integer" is an enum of the one value "integer"; for a type \
                write year: integer (no quotes), or give JSON Schema as schema @file.json
                warning: schema: tags: ["string"] is an enum of the one value "string"; for a type \
                write tags: [string] (no quotes), or give JSON Schema as schema @file.json

                """)
        #expect(
            outcome.stdout == """
                {
                  "type": "OBJECT",
                  "properties": {
                    "title": {
                      "type": "STRING",
                      "enum": [
                        "string"
                      ]
                    },
                    "year": {
                      "type": "STRING",
                      "enum": [
                        "integer"
                      ]
                    },
                    "tags": {
                      "type": "ARRAY",
                      "items": {
                        "type": "STRING",
                        "enum": [
                          "string"
                        ]
                      }
                    },
                    "ok": {
                      "type": "STRING",
                      "enum": [
                        "yes"
                      ]
                    }
                  },
                  "required": [
                    "title",
                    "year",
                    "tags",
                    "ok"
                  ],
                  "propertyOrdering": [
                    "title",
                    "year",
                    "tags",
                    "ok"
                  ]
                }

                """)
    }

    @Test func typesAndRealEnumsDoNotWarn() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", #"schema { title: string, kind: "string" | "number", author: { name: string } }"#,
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
    }

    @Test func nestedPropertiesAndExtractSchemaWarnToo() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "extract", "--schema", #"{ author: { name: "string" } }"#, #"{"author": {"name": "string"}}"#,
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "{\n  \"author\": {\n    \"name\": \"string\"\n  }\n}\n")
        #expect(
            outcome.stderr == """
                warning: extract: author.name: "string" is an enum of the one value "string"; for a \
                type write name: string (no quotes), or give JSON Schema as extract --schema @file.json

                """)
    }

    /// The type syntax written without its braces is llm's concise syntax, where `title: string`
    /// is a description: kept as read, with a warning giving the braced form.
    @Test func typeSyntaxWithoutBracesWarnsWithTheBracedForm() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "schema title: string, year?: integer", "-c", "schema year? int", "-c",
            "schema name, bio: a short bio, age int",
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderr == """
                warning: schema: 'title: string' reads as a field title described as "string" (llm's \
                concise syntax); for types write { title: string, year?: integer } (the type syntax, in \
                braces)
                warning: schema: 'year?' reads as a field named "year?" (llm's concise syntax); for \
                types write { year?: integer } (the type syntax, in braces)

                """)
    }
}
