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

    /// A null word in a string field reads as the lenient decoder reads it for a `String?`:
    /// absent when optional, null when nullable; a required string, or an enum that lists the
    /// word, keeps it.
    @Test(arguments: [
        ("{ nick?: string }", #"{"nick":"N/A"}"#, "{}", [#"$.nick: string "N/A" removed (read as absent)"#]),
        ("{ nick?: string }", #"{"nick":""}"#, "{}", [#"$.nick: string "" removed (read as absent)"#]),
        (
            "{ nick: string | null }", #"{"nick":"none"}"#, #"{"nick":null}"#,
            [#"$.nick: string "none" read as null"#]
        ),
        ("{ nick: string }", #"{"nick":"N/A"}"#, #"{"nick":"N/A"}"#, []),
        (
            #"{ pick?: "none" | "all" }"#, #"{"pick":"None"}"#, #"{"pick":"none"}"#,
            [#"$.pick: string "None" read as string "none""#]
        ),
        ("{ nick?: string }", #"{"nick":"Ada"}"#, #"{"nick":"Ada"}"#, []),
    ])
    func nullWordsInStringFieldsReadAsTheDecoderReadsThem(
        schema: String, input: String, expected: String, notes: [String]
    ) throws {
        let (value, changes) = try coerce(schema, input)
        #expect(value == expected)
        #expect(changes == notes)
    }

    struct Person: Decodable { var name: String; var nick: String? }

    /// Schema-guided extraction and the lenient decoder read every null word in an optional
    /// string the same way: no value.
    @Test(arguments: ["N/A", "none", "", " NULL ", "-", "Ada"])
    func schemaSelectionAndTheDecoderAgreeOnOptionalStrings(word: String) throws {
        let input = TestJSON.parse(#"{"name":"Ada","nick":\#(JSONValue.string(word).compactText)}"#)
        let schema = try GeminiSchema.parseTypeSyntax("{ name: string, nick?: string }")
        let selected = try #require(schema.selectCandidate(from: [input]))
        let decoded = try LenientJSONDecoder().decode(Person.self, from: input).value
        #expect(selected.value["nick"]?.stringValue == decoded.nick)
        #expect(selected.isValid)
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
