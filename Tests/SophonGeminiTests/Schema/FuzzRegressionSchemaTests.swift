import SophonCore
import Testing

@testable import SophonGemini

/// Inputs found by the `json-schema` fuzz target (docs/reliability.md, Findings): schemas whose
/// JSON Schema form (`schema show json-schema`) does not read back as exactly the same schema.
/// None crashes; these hold what happens, so a change is a decision, not an accident.
@Suite struct FuzzRegressionSchemaTests {
    /// Gemini Schema in, its JSON Schema form, and the Gemini Schema that form reads back as.
    @Test(arguments: [
        (#"{"type":"NULL","nullable":true}"#, #"{"type":"null"}"#, #"{"type":"NULL"}"#),
        (#"{"description":"d","nullable":true}"#, #"{"description":"d"}"#, #"{"description":"d"}"#),
        (
            #"{"type":"STRING","nullable":true,"example":"x"}"#,
            #"{"type":["string","null"],"examples":["x"]}"#,
            #"{"type":"STRING","nullable":true}"#
        ),
    ])
    func redundantOrDroppedFieldsDoNotReadBack(input: String, jsonSchema: String, readBack: String) throws {
        let document = try GeminiSchemaDocument(JSONValue(parsing: input))
        #expect(document.dialect == .geminiSchema)
        #expect(document.schema.jsonSchemaValue.compactText == jsonSchema)
        let reread = try GeminiSchemaDocument(document.schema.jsonSchemaValue)
        #expect(reread.schema.jsonValue.compactText == readBack)
    }

    @Test func unknownTypeHasNoJSONSchemaReading() throws {
        let document = try GeminiSchemaDocument(JSONValue(parsing: #"{"type":"ime","nullable":true}"#))
        #expect(document.schema.apiProblems().map(\.description) == [#"$: unknown type "ime""#])
        #expect(document.schema.jsonSchemaValue.compactText == #"{"type":["ime","null"]}"#)
        #expect(throws: GeminiSchemaError.unsupported(path: "$.type", reason: #"unknown type "ime""#)) {
            try GeminiSchemaDocument(document.schema.jsonSchemaValue)
        }
    }
}
