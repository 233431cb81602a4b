import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaValidationTests {
    static let schema = try! GeminiSchema.parseTypeSyntax(
        #"{ title: string, year: integer, rating?: number, tags: [string], status: "draft" | "final", note?: string | null }"#
    )

    static let cases: [(String, [String])] = [
        (#"{"title":"Up","year":2009,"tags":["a"],"status":"final"}"#, []),
        (#"{"title":"Up","year":2009.0,"tags":[],"status":"draft","note":null,"extra":1}"#, []),
        (
            #"{"title":"Arrival","year":"2016","tags":["a",3],"status":"final"}"#,
            [#"$.year: expected integer, got string "2016""#, "$.tags[1]: expected string, got number 3"]
        ),
        (
            #"{"year":2016,"tags":["x"],"status":"done"}"#,
            [
                #"$: missing required property "title""#,
                #"$.status: expected one of "draft", "final", got string "done""#,
            ]
        ),
        (
            #"{"title":null,"year":1.5,"tags":{},"status":true,"rating":"9"}"#,
            [
                "$.title: expected string, got null", "$.year: expected integer, got number 1.5",
                #"$.rating: expected number, got string "9""#, "$.tags: expected array, got object",
                "$.status: expected string, got boolean true",
            ]
        ),
        ("[]", ["$: expected object, got array"]),
    ]

    @Test(arguments: cases)
    func messages(json: String, expected: [String]) {
        #expect(Self.schema.validate(TestJSON.parse(json)).map(\.description) == expected)
    }

    static let boundCases: [(GeminiSchema, String, [String])] = [
        (.number(minimum: 0, maximum: 10), "11", ["$: expected at most 10, got 11"]),
        (.integer(minimum: 1.5), "1", ["$: expected at least 1.5, got 1"]),
        (.array(items: .string(), minItems: 1), "[]", ["$: expected at least 1 item, got 0"]),
        (.array(items: .string(), maxItems: 2), #"["a","b","c"]"#, ["$: expected at most 2 items, got 3"]),
        (GeminiSchema(type: .string, minLength: 2), #""é""#, ["$: expected at least 2 characters, got 1"]),
        (GeminiSchema(type: .string, maxLength: 1), #""ab""#, ["$: expected at most 1 character, got 2"]),
        (
            GeminiSchema(type: .string, pattern: "^[a-z]+$"), #""Ab""#,
            [#"$: string "Ab" does not match pattern "^[a-z]+$""#]
        ),
        (GeminiSchema(type: .string, pattern: "b"), #""abc""#, []),
        (
            GeminiSchema(type: .string, pattern: "("), #""a""#,
            [#"$: the schema's pattern "(" is not a valid regular expression"#]
        ),
        (
            GeminiSchema(type: .object, minProperties: 2), #"{"a":1}"#,
            ["$: expected at least 2 properties, got 1"]
        ),
        (
            GeminiSchema(type: .object, maxProperties: 1), #"{"a":1,"b":2}"#,
            ["$: expected at most 1 property, got 2"]
        ),
        (.string(), "null", ["$: expected string, got null"]),
        (.string(nullable: true), "null", []),
        (GeminiSchema(type: .null), "0", ["$: expected null, got number 0"]),
        (GeminiSchema(anyOf: [.string(), .integer()]), "3", []),
        (
            GeminiSchema(anyOf: [.string(), .object(properties: ["a": .string()], required: ["a"])]), "{}",
            [#"$: missing required property "a""#]
        ),
        (GeminiSchema(type: .unknown("DECIMAL")), "[1]", []),
        (
            .object(properties: ["odd key": .integer()], required: []), #"{"odd key":"x"}"#,
            [#"$["odd key"]: expected integer, got string "x""#]
        ),
        (
            .integer(), #""\#(String(repeating: "b", count: 45))""#,
            [#"$: expected integer, got string "\#(String(repeating: "b", count: 40))…""#]
        ),
    ]

    @Test(arguments: boundCases)
    func constraints(schema: GeminiSchema, json: String, expected: [String]) {
        #expect(schema.validate(TestJSON.parse(json)).map(\.description) == expected)
    }

    @Test func validateIsValidAgree() {
        #expect(Self.schema.isValid(TestJSON.parse(#"{"title":"a","year":1,"tags":[],"status":"draft"}"#)))
        #expect(!Self.schema.isValid(.null))
    }

    @Test func selectsTheFirstValidCandidate() throws {
        let candidates = [
            TestJSON.parse(#"{"title":"x"}"#),
            TestJSON.parse(#"{"title":"a","year":1,"tags":[],"status":"draft"}"#),
            TestJSON.parse(#"{"title":"b","year":2,"tags":[],"status":"final"}"#),
        ]
        let selection = try #require(Self.schema.selectCandidate(from: candidates))
        #expect(selection.index == 1)
        #expect(selection.isValid)
    }

    @Test func selectsTheClosestWhenNoneValidates() throws {
        let candidates = [
            TestJSON.parse("[1, 2]"),
            TestJSON.parse(#"{"title":"a","year":"1","tags":[],"status":"draft"}"#),
            TestJSON.parse(#"{"title":"b","year":"2","tags":[],"status":"final"}"#),
        ]
        let selection = try #require(Self.schema.selectCandidate(from: candidates, coercing: false))
        #expect(selection.index == 1)
        #expect(selection.violations.map(\.description) == [#"$.year: expected integer, got string "1""#])
        #expect(Self.schema.selectCandidate(from: []) == nil)
    }
}
