import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaAPIChecksTests {
    @Test func cleanSchemasHaveNoProblems() throws {
        #expect(
            try GeminiSchema.parseTypeSyntax("{ a: string, b?: [ { c: int | null } ] }").apiProblems() == [])
        #expect(GeminiSchema(anyOf: [.string(nullable: true), .integer()]).apiProblems() == [])
        #expect(GeminiSchema(nullable: true, anyOf: [.string()]).apiProblems().count == 1)
    }

    @Test func reportsWhatTheAPIRejects() throws {
        let schema = try GeminiSchema(
            jsonValue: TestJSON.parse(
                #"{"type":"OBJECT","properties":{"a":{"type":"INTEGER","enum":["1"]},"#
                    + #""b":{"type":"ARRAY","items":{"type":"OBJECT"}},"#
                    + #""c":{"anyOf":[{"type":"STRING"},{"type":"DATE"}],"description":"d"}},"#
                    + #""required":["a","z"],"propertyOrdering":["y"]}"#))
        #expect(
            schema.apiProblems().map(\.description) == [
                #"$: required names "z", which is not a property"#,
                #"$: propertyOrdering names "y", which is not a property"#,
                "$.properties.a: enum is only allowed on STRING, not INTEGER",
                "$.properties.b.items: an OBJECT needs at least one property",
                "$.properties.c: anyOf must be the only field of its schema",
                #"$.properties.c.anyOf[1]: unknown type "DATE""#,
            ])
    }
}
