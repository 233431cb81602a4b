import SophonCore
import Testing

@testable import SophonGemini

/// Generated inputs: the parsers never crash, and every schema they accept survives a trip
/// through Gemini Schema JSON and through JSON Schema unchanged.
@Suite struct SchemaRoundTripTests {
    /// A small deterministic generator (64-bit LCG), so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let pieces = [
        "{", "}", "[", "]", ":", ",", "?", "|", " ", "\n", "a", "b", "string", "int", "number",
        "bool", "null", "\"x\"", "\"y z\"", "'q'", "\"\\u00e9\"", "\"\\q\"", "\"", "#", "-", "é",
    ]

    @Test func randomTextNeverCrashesTheParsers() {
        var generator = Generator(state: 42)
        var accepted = 0
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<generator.next(24) { text += Self.pieces[generator.next(Self.pieces.count)] }
            if let schema = try? GeminiSchema.parseSpec(text) {
                accepted += 1
                #expect((try? GeminiSchema(jsonValue: schema.jsonValue)) == schema, "\(text)")
            }
        }
        // The alphabet makes some inputs valid (concise specs at least); the checks above ran.
        #expect(accepted > 100)
    }

    static let specs = [
        "{ a: string, b?: [int | null], c: \"x\" | \"y\", d: { e: bool \"flag\" } }",
        "[ { name: str, score?: float } ]",
        "title, year int, rating float: out of ten, ok bool",
        "{ \"odd key\": [[number]], n: null }",
    ]

    @Test(arguments: specs)
    func survivesBothJSONForms(spec: String) throws {
        let schema = try GeminiSchema.parseSpec(spec)
        #expect(try GeminiSchema(jsonValue: schema.jsonValue) == schema)
        let conversion = try JSONSchemaConverter.convert(schema.jsonSchemaValue)
        #expect(conversion.schema == schema)
        #expect(conversion.notes.isEmpty)
        #expect(try GeminiSchemaDocument(schema.jsonValue).schema == schema)
        #expect(try GeminiSchemaDocument(schema.jsonSchemaValue).schema == schema)
    }
}
