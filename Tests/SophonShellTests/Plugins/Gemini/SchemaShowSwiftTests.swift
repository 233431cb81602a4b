import Foundation
import SophonTestSupport
import Testing

/// `schema show --swift [NAME]`: the session's schema as a Swift `Decodable` struct
/// (docs/commands.md), the type `GeminiSchema(for:)` derives the same schema from.
@Suite(.childSlots) struct SchemaShowSwiftTests {
    @Test func aFormShowDoesNotTakeIsRefusedNotTakenForASchema() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c", "schema { a: string }", "-c", "schema show --picoschem", "-c", "schema show foo",
            "-c", "schema shw", "-c", "schema show",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                -c:2:1: error: schema show: unknown option '--picoschem' (did you mean '--picoschema'?)
                -c:3:1: error: usage: schema SPEC | @FILE | show [gemini|json-schema|--picoschema|--swift [NAME]] | picoschema TEXT | clear
                -c:4:1: error: usage: schema SPEC | @FILE | show [gemini|json-schema|--picoschema|--swift [NAME]] | picoschema TEXT | clear (did you mean 'show'?)

                """)
        // The session's schema is still the one set.
        #expect(outcome.stdout.contains(#""a""#))
    }

    @Test func theSchemaIsPrintedAsASwiftStruct() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "-c",
            #"schema { "first name": string "given name", age?: integer, tags: [{ label: string }], when: string }"#,
            "-c", "schema show --swift Person",
        ])
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout == """
                struct Person: Decodable, Sendable, GeminiSchemaDescribing {
                    struct Tag: Decodable, Sendable {
                        let label: String
                    }

                    /// given name
                    let firstName: String
                    let age: Int?
                    let tags: [Tag]
                    let when: String

                    enum CodingKeys: String, CodingKey {
                        case firstName = "first name"
                        case age
                        case tags
                        case when
                    }

                    static let schemaFacets: [String: GeminiSchemaFacets] = ["first name": "given name"]
                }

                """)
    }

    @Test func withoutASchemaOrWithTwoNamesItFails() async throws {
        let shell = try await GeminiShell()
        let none = try await shell.run(["-c", "schema show --swift"])
        #expect(none.stderr == "-c:1:1: error: schema show: no schema is set\n")
        #expect(none.status != 0)
        let two = try await shell.run(["-c", "schema { a: string }", "-c", "schema show --swift A B"])
        #expect(two.stderr.contains("usage: schema SPEC"))
        #expect(two.status != 0)
    }
}
