import SophonCore
import Testing

@testable import SophonGemini

/// Schema coercion, schema paths and tape differences read through SophonCore's one table
/// (``LenientReading``), one path spelling (``JSONPath``) and one number rule
/// (``JSONNumber/compare(_:)``).
@Suite struct SchemaLenientReadingTests {
    private func coerce(_ schema: String, _ input: String) throws -> (String, [String]) {
        let coercion = try GeminiSchema.parseTypeSyntax(schema).coerce(TestJSON.parse(input))
        return (coercion.value.compactText, coercion.changes.map(\.description))
    }

    @Test(arguments: ["nil", "NA", "-", "undefined", " N/A ", "NULL", ""])
    func everyNullWordReadsAsNull(word: String) throws {
        let input = #"{"x":"\#(word)"}"#
        let (nullable, nullableNotes) = try coerce("{ x: number | null }", input)
        #expect(nullable == #"{"x":null}"#)
        #expect(nullableNotes.count == 1)
        let (optional, _) = try coerce("{ x?: int }", input)
        #expect(optional == "{}")
    }

    @Test(arguments: [
        ("y", true), ("N", false), ("1", true), ("0", false), (" yes ", true), ("FALSE", false),
    ])
    func everyBooleanWordReadsAsBoolean(word: String, expected: Bool) throws {
        let coercion = GeminiSchema.boolean().coerce(.string(word))
        #expect(coercion.value == .bool(expected))
        #expect(
            coercion.changes.map(\.description) == [
                "$: string \(JSONValue.string(word).compactText) read as boolean \(expected)"
            ])
    }

    @Test func numbersOneAndZeroReadAsBooleans() {
        #expect(GeminiSchema.boolean().coerce(.integer(1)).value == .bool(true))
        #expect(
            GeminiSchema.boolean().coerce(.integer(0)).changes.map(\.description) == [
                "$: number 0 read as boolean false"
            ])
        #expect(GeminiSchema.boolean().coerce(.integer(2)).value == .integer(2))
    }

    @Test(arguments: [
        (#""1,234,567,890,123,456,789""#, "1234567890123456789"), (#""$1,299.99""#, "1299.99"),
        (#""85%""#, "85"), (#"" 7 ""#, "7"), (#""007""#, "7"),
        (#""12345678901234567890123""#, "12345678901234567890123"),
    ])
    func numberStringsKeepTheirDigits(input: String, expected: String) {
        #expect(GeminiSchema.number().coerce(TestJSON.parse(input)).value.compactText == expected)
    }

    @Test func outOfRangeStringsUseTheSameNumberForms() throws {
        let (value, notes) = try coerce("{ x?: number }", #"{"x":"$1e999"}"#)
        #expect(value == "{}")
        #expect(notes == [#"$.x: string "$1e999" removed (out of range, read as absent)"#])
    }

    @Test func commaListsDropNullWords() throws {
        let (value, _) = try coerce("{ tags: [string] }", #"{"tags":"a, N/A, b"}"#)
        #expect(value == #"{"tags":["a","b"]}"#)
    }

    @Test func pathsSpellDollarKeysInBrackets() {
        let schema = GeminiSchema.object(
            properties: ["$id": .string(), "name": .string(), "odd key": .string()],
            required: ["$id", "name", "odd key"])
        let violations = schema.validate(TestJSON.parse(#"{"$id":1,"name":2,"odd key":3}"#))
        #expect(
            Set(violations.map(\.path)) == [#"$["$id"]"#, #"$["odd key"]"#, "$.name"])
    }

    @Test(
        arguments: [
            ("1", "1.0", nil), ("1e400", "10e399", nil),
            (
                "123456789012345678901234567890123456789012", "123456789012345678901234567890123456789013",
                "$.n"
            ),
        ] as [(String, String, String?)])
    func tapeBodiesCompareNumbersExactly(recorded: String, got: String, path: String?) {
        let difference = JSONValueDifference.first(
            recorded: TestJSON.parse(#"{"n":\#(recorded)}"#), got: TestJSON.parse(#"{"n":\#(got)}"#))
        #expect(difference?.path.description == path)
    }
}
