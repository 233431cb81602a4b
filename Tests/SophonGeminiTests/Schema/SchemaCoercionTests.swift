import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaCoercionTests {
    static let schema = try! GeminiSchema.parseTypeSyntax(
        #"{ title: string, year: integer, price?: number, ok?: bool, tags: [string], status: "draft" | "final", "#
            + #"score: number | null, n?: int, ids?: [int] }"#)

    @Test func coercesAndReportsEachChange() {
        let input = TestJSON.parse(
            #"{"title":1984,"year":"2016","price":"$1,299.99","ok":"Yes","tags":"red, green ,","#
                + #""status":"Final","score":"N/A","n":"none","ids":"7","extra":"x"}"#)
        let coercion = Self.schema.coerce(input)
        #expect(
            coercion.value.compactText
                == #"{"title":"1984","year":2016,"price":1299.99,"ok":true,"tags":["red","green"],"#
                + #""status":"final","score":null,"ids":[7],"extra":"x"}"#)
        #expect(
            coercion.changes.map(\.description) == [
                #"$.title: number 1984 read as string "1984""#,
                #"$.year: string "2016" read as number 2016"#,
                #"$.price: string "$1,299.99" read as number 1299.99"#,
                #"$.ok: string "Yes" read as boolean true"#,
                #"$.tags: string "red, green ," read as array"#,
                #"$.status: string "Final" read as string "final""#,
                #"$.score: string "N/A" read as null"#,
                #"$.n: string "none" removed (read as absent)"#,
                #"$.ids: string "7" wrapped as array"#,
                #"$.ids[0]: string "7" read as number 7"#,
            ])
        #expect(Self.schema.validate(coercion.value).isEmpty)
    }

    static let numberCases: [(String, String?)] = [
        ("7", "7"), ("7.0", "7.0"), ("1,024", "1024"), ("85%", "85"), ("+3", "3"), (".5", "0.5"),
        ("€ 12", "12"), ("abc", nil), ("", nil), ("1e400", nil), ("-1e999", nil), ("--1", nil),
    ]

    @Test(arguments: numberCases)
    func numbersFromText(text: String, expected: String?) {
        #expect(SchemaCoercer.number(from: text)?.text == expected)
    }

    @Test func integersAreTruncatedNeverTrapped() {
        let schema = GeminiSchema.integer()
        #expect(schema.coerce(TestJSON.parse("7.9")).value == .integer(7))
        #expect(schema.coerce(TestJSON.parse("-7.9")).value == .integer(-7))
        #expect(schema.coerce(TestJSON.parse("1e300")).value.compactText == "1e300")
        #expect(schema.coerce(TestJSON.parse(#""7.0""#)).value == .integer(7))
        #expect(schema.coerce(TestJSON.parse("3")).changes.isEmpty)
    }

    @Test func leavesWhatItCannotFix() {
        let schema = GeminiSchema.boolean()
        let coercion = schema.coerce(.string("maybe"))
        #expect(coercion.value == .string("maybe"))
        #expect(coercion.changes.isEmpty)
        #expect(GeminiSchema.string().coerce(.string("")).value == .string(""))
    }

    @Test func selectionUsesCoercionWhenNothingValidatesAsIs() throws {
        let schema = GeminiSchema.object(properties: ["year": .integer()], required: ["year"])
        let candidates = [TestJSON.parse(#"{"year":"x"}"#), TestJSON.parse(#"{"year":"2016"}"#)]
        let selection = try #require(schema.selectCandidate(from: candidates))
        #expect(selection.index == 1)
        #expect(selection.value.compactText == #"{"year":2016}"#)
        #expect(selection.coercions.map(\.description) == [#"$.year: string "2016" read as number 2016"#])
        let asIs = try #require(schema.selectCandidate(from: candidates + [TestJSON.parse(#"{"year":1}"#)]))
        #expect(asIs.index == 2)
        #expect(asIs.coercions.isEmpty)
    }
}

/// `null`, and numbers no `NUMBER` or `INTEGER` can hold, in optional and nullable members
/// (docs/library.md: null words, out-of-range and non-finite numbers read as nil).
@Suite struct SchemaAbsentReadingTests {
    static let cases: [(schema: String, input: String, value: String, notes: [String])] = [
        ("{ x?: number }", #"{"x": null}"#, "{}", ["$.x: null removed (read as absent)"]),
        (
            "{ x?: number }", #"{"x": 1e999}"#, "{}",
            ["$.x: number 1e999 removed (out of range, read as absent)"]
        ),
        (
            "{ x?: number }", #"{"x": "-1e999"}"#, "{}",
            [#"$.x: string "-1e999" removed (out of range, read as absent)"#]
        ),
        (
            "{ x?: integer }", #"{"x": 1e30}"#, "{}",
            ["$.x: number 1e30 removed (out of range, read as absent)"]
        ),
        ("{ x?: integer }", #"{"x": 9007199254740993}"#, #"{"x":9007199254740993}"#, []),
        (
            "{ x: number | null }", #"{"x": 1e999}"#, #"{"x":null}"#,
            ["$.x: number 1e999 out of range, read as null"]
        ),
        ("{ x?: string }", #"{"x": null}"#, "{}", ["$.x: null removed (read as absent)"]),
        ("{ x?: number }", #"{"x": 1e30}"#, #"{"x":1e30}"#, []),
    ]

    @Test(arguments: cases)
    func optionalAndNullableMembersReadAsAbsentOrNull(
        _ item: (schema: String, input: String, value: String, notes: [String])
    ) throws {
        let schema = try GeminiSchema.parseTypeSyntax(item.schema)
        let selection = try #require(schema.selectCandidate(from: [TestJSON.parse(item.input)]))
        #expect(selection.value.compactText == item.value)
        #expect(selection.coercions.map(\.description) == item.notes)
        #expect(selection.violations.isEmpty)
    }

    @Test func requiredNumbersOutOfRangeAreViolations() throws {
        let number = try GeminiSchema.parseTypeSyntax("{ x: number }")
        #expect(
            number.validate(TestJSON.parse(#"{"x": 1e999}"#)).map(\.description) == [
                "$.x: expected number, got number 1e999 (out of range)"
            ])
        let integer = try GeminiSchema.parseTypeSyntax("{ x: integer }")
        #expect(
            integer.validate(TestJSON.parse(#"{"x": -1e19}"#)).map(\.description) == [
                "$.x: expected integer, got number -1e19 (out of the 64-bit range)"
            ])
        #expect(integer.validate(TestJSON.parse(#"{"x": 9223372036854775807}"#)).isEmpty)
        #expect(integer.validate(TestJSON.parse(#"{"x": -9223372036854775808}"#)).isEmpty)
        #expect(
            integer.validate(TestJSON.parse(#"{"x": 9223372036854775808}"#)).map(\.description) == [
                "$.x: expected integer, got number 9223372036854775808 (out of the 64-bit range)"
            ])
    }
}
