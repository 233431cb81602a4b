import Foundation
import SophonTestSupport
import Testing

/// The shipped examples replay offline (no key, no server: `SOPHON_GEMINI_BASE_URL` points at
/// a closed port) with exit 0 and exactly this stdout. After changing an example or its tape
/// on purpose, update the text here and review the diff.
@Suite(.childSlots) struct GeminiShellExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    static func replay(_ name: String) async throws -> SophonProcess.Outcome {
        let tape = examples.appendingPathComponent("\(name).tape").path
        let script = examples.appendingPathComponent("\(name).sophon").path
        return try await SophonProcess.run(["--replay", tape, script])
    }

    @Test func theTourReplaysOfflineWithItsGoldenOutput() async throws {
        let outcome = try await Self.replay("tour")
        #expect(outcome.stdout == Self.tour)
        #expect(outcome.status == 0)
        #expect(!outcome.stderr.contains("error"))
    }

    @Test func theRegressionExampleReplaysOfflineWithItsGoldenOutput() async throws {
        let outcome = try await Self.replay("regression")
        #expect(outcome.stdout == Self.regression)
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
    }

    static let regression = #"""
        {
          "category": "billing",
          "urgency": 4,
          "summary": "Charged twice for the annual plan; wants one charge refunded."
        }
        {
          "category": "bug",
          "urgency": 4,
          "summary": "App crashes opening albums over 500 photos on Android 15."
        }
        {
          "category": "feature-request",
          "urgency": 1,
          "summary": "Wants albums sortable by the date photos were taken."
        }
        {
          "category": "other",
          "urgency": 1,
          "summary": "Thanks support for fixing a login problem."
        }
        13 passed, 0 failed

        """#

    static let tour = #"""
        == 1. Describe the answer you want
        schema show prints the responseSchema exactly as each structured ask sends it:
        {
          "type": "OBJECT",
          "properties": {
            "title": {
              "type": "STRING"
            },
            "author": {
              "type": "STRING"
            },
            "year": {
              "type": "INTEGER"
            },
            "pages": {
              "type": "INTEGER",
              "description": "approximate page count"
            },
            "genres": {
              "type": "ARRAY",
              "items": {
                "type": "STRING"
              }
            },
            "mood": {
              "type": "STRING",
              "enum": [
                "light",
                "thoughtful",
                "dark"
              ]
            }
          },
          "required": [
            "title",
            "author",
            "year",
            "genres",
            "mood"
          ],
          "propertyOrdering": [
            "title",
            "author",
            "year",
            "pages",
            "genres",
            "mood"
          ]
        }
        schema show --swift prints the same schema as a Swift type; in a Swift program,
        GeminiSchema(for: Book.self) derives this very schema from it (docs/library.md):
        struct Book: Decodable, Sendable, GeminiSchemaDescribing {
            enum Mood: String, Decodable, Sendable, CaseIterable {
                case light
                case thoughtful
                case dark
            }

            let title: String
            let author: String
            let year: Int
            /// approximate page count
            let pages: Int?
            let genres: [String]
            let mood: Mood

            static let schemaFacets: [String: GeminiSchemaFacets] = ["pages": "approximate page count"]
        }

        == 2. Ask for a structured answer
        {
          "title": "The Left Hand of Darkness",
          "author": "Ursula K. Le Guin",
          "year": 1969,
          "pages": 304,
          "genres": [
            "science fiction",
            "anthropological fiction"
          ],
          "mood": "thoughtful"
        }
        Gemini suggests The Left Hand of Darkness by Ursula K. Le Guin (1969).

        == 3. validate: check a value against the schema
        valid
        valid

        == 4. expect: turn answers into checks

        == 5. A conversation keeps the schema
        {
          "title": "Dune",
          "author": "Frank Herbert",
          "year": 1965,
          "pages": 412,
          "genres": [
            "science fiction",
            "planetary romance"
          ],
          "mood": "thoughtful"
        }
        {
          "title": "Dune Messiah",
          "author": "Frank Herbert",
          "year": 1969,
          "pages": 256,
          "genres": [
            "science fiction"
          ],
          "mood": "dark"
        }
        user: Name a science-fiction novel set on a desert planet.
        model: {"title": "Dune", "author": "Frank Herbert", "year": 1965, "pages": 412, "genres": ["science fiction", "planetary romance"], "mood": "thoughtful"}
        user: Now a later novel by the same author.
        model: {"title": "Dune Messiah", "author": "Frank Herbert", "year": 1969, "pages": 256, "genres": ["science fiction"], "mood": "dark"}

        == 6. Retries: when the API says 'too many requests'
        attempts=3
        base=800ms
        cap=6s
        jitter=on
        retry-after=on
        max-wait=1m
        fallback=gemini-3.5-flash-lite
        downscale=on
        {
          "title": "The Last Question",
          "author": "Isaac Asimov",
          "year": 1956,
          "pages": 14,
          "genres": [
            "science fiction",
            "short story"
          ],
          "mood": "thoughtful"
        }
        attempts=2
        base=800ms
        cap=6s
        jitter=off
        retry-after=on
        max-wait=10s
        fallback=gemini-3.5-flash-lite
        downscale=on

        == 7. extract: recover JSON from messy replies
        {
          "title": "The Three-Body Problem",
          "author": "Liu Cixin",
          "year": 2008,
          "tags": [
            "science fiction",
            "first contact"
          ],
          "summary": "A secret military project sends signals into space and gets an answer... from a world with three suns. The reply ends with \"Do not answer!\" and"
        }
        {
          "title": "Dune",
          "year": 1965
        }

        == 8. Text answers stream
        A schema makes the answer a contract: every reply has the fields and types your code expects, so you can check it and use it instead of guessing at sentences.
        5 calls: 138 prompt, 196 output, 981 thoughts, 1315 total tokens
        gemini-3.8-flash: 5 calls, 1315 tokens, $0.00451725
        total cost: $0.00451725
        8 passed, 0 failed

        """#
}
