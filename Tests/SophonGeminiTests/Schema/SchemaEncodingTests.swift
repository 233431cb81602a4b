import Foundation
import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaEncodingTests {
    /// The original API's call shape: a movie object.
    static let movie = GeminiSchema.object(
        properties: [
            "title": .string(description: "The title"),
            "year": .integer(),
            "rating": .number(minimum: 0, maximum: 10),
            "genres": .array(items: .string(enum: ["drama", "comedy"]), minItems: 1),
            "seen": .boolean(),
            "released": .string(format: "date-time", nullable: true),
        ], required: ["title", "year"], description: "A movie")

    static let movieCompact =
        #"{"type":"OBJECT","description":"A movie","properties":{"title":{"type":"STRING","description":"The title"},"#
        + #""year":{"type":"INTEGER"},"rating":{"type":"NUMBER","minimum":0,"maximum":10},"#
        + #""genres":{"type":"ARRAY","items":{"type":"STRING","enum":["drama","comedy"]},"minItems":1},"#
        + #""seen":{"type":"BOOLEAN"},"released":{"type":"STRING","format":"date-time","nullable":true}},"#
        + #""required":["title","year"],"propertyOrdering":["title","year","rating","genres","seen","released"]}"#

    @Test func factoriesEncodeInDeclarationOrder() {
        #expect(Self.movie.jsonValue.compactText == Self.movieCompact)
    }

    @Test func compactAndPrettyTextAreByteStable() {
        let compact = Self.movie.jsonValue.compactText
        let pretty = Self.movie.jsonValue.prettyText
        for _ in 0..<20 {
            #expect(Self.movie.jsonValue.compactText == compact)
            #expect(Self.movie.jsonValue.prettyText == pretty)
        }
        #expect(
            pretty.hasPrefix(
                "{\n  \"type\": \"OBJECT\",\n  \"description\": \"A movie\",\n  \"properties\": {\n"))
    }

    @Test func jsonEncoderWithSortedKeysIsByteStable() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let first = try encoder.encode(Self.movie)
        for _ in 0..<20 { #expect(try encoder.encode(Self.movie) == first) }
        #expect(
            String(decoding: first, as: UTF8.self).hasPrefix(
                #"{"description":"A movie","properties":{"genres":{"items":{"enum":["drama","comedy"],"type":"STRING"}"#
            ))
    }

    @Test func codableRoundTripKeepsTheSchema() throws {
        let data = try JSONEncoder().encode(Self.movie)
        let decoded = try JSONDecoder().decode(GeminiSchema.self, from: data)
        // Properties come back sorted, but propertyOrdering restores the output order.
        #expect(decoded.properties?.names == ["genres", "rating", "released", "seen", "title", "year"])
        #expect(decoded.jsonValue.compactText == Self.movieCompact)
    }

    @Test func decoderReportsWrongFieldKinds() {
        let data = Data(#"{"type":"OBJECT","required":"title"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GeminiSchema.self, from: data) }
    }

    @Test func propertyOrderingWinsOverStoredOrder() {
        var schema = GeminiSchema(
            type: .object, properties: ["a": .string(), "b": .integer(), "c": .boolean()],
            propertyOrdering: ["c", "a"])
        #expect(
            schema.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"c":{"type":"BOOLEAN"},"a":{"type":"STRING"},"b":{"type":"INTEGER"}},"propertyOrdering":["c","a"]}"#
        )
        schema.propertyOrdering = nil
        #expect(schema.properties?.names == ["a", "b", "c"])
    }

    @Test func dictionaryPropertiesAreSorted() {
        let properties = GeminiSchemaProperties(["zeta": .string(), "alpha": .string(), "mid": .string()])
        #expect(properties.names == ["alpha", "mid", "zeta"])
    }

    /// An example number no `Double` holds (`1e400`) is refused where it is read, with its
    /// path: the request could not carry it (found by the json-schema fuzz harness).
    @Test func anExampleNumberOutOfDoubleRangeIsRefused() throws {
        let json = try JSONValue(
            parsing: #"{"type":"OBJECT","properties":{"a":{"type":"NUMBER","example":1e400}}}"#)
        #expect(
            throws: GeminiSchemaError.invalidValue(
                path: "$.properties.a.example", expected: "a value whose numbers are finite doubles")
        ) { try GeminiSchema(jsonValue: json, strict: false) }
    }

    @Test func propertiesSubscriptReplacesInPlaceAndRemoves() {
        var properties: GeminiSchemaProperties = ["a": .string(), "b": .string()]
        properties["a"] = .integer()
        properties["c"] = .boolean()
        properties["b"] = nil
        #expect(properties.names == ["a", "c"])
        #expect(properties["a"] == .integer())
        // Names after a removed one are still found at their new places.
        #expect(properties["c"] == .boolean())
        #expect(properties["b"] == nil)
        properties["b"] = .number()
        properties["a"] = nil
        #expect(properties.names == ["c", "b"])
        #expect(properties["c"] == .boolean())
        #expect(properties["b"] == .number())
        #expect(properties == ["c": .boolean(), "b": .number()])
        #expect(properties != ["b": .number(), "c": .boolean()])
    }

    @Test func everyFieldRoundTripsThroughJSONValueInKeyOrder() throws {
        let text =
            #"{"type":"OBJECT","format":"f","title":"T","description":"D","nullable":false,"enum":["x"],"#
            + #""minimum":-1.5,"maximum":2,"minLength":1,"maxLength":9,"pattern":"^a","#
            + #""items":{"type":"STRING"},"minItems":0,"maxItems":3,"#
            + #""properties":{"z":{"type":"STRING"},"a":{"type":"NUMBER"}},"required":["z"],"#
            + #""propertyOrdering":["z","a"],"minProperties":1,"maxProperties":2,"#
            + #""anyOf":[{"type":"STRING"},{"type":"NULL"}],"example":{"z":"q"},"default":[1,2]}"#
        let schema = try GeminiSchema(jsonValue: TestJSON.parse(text))
        #expect(schema.jsonValue.compactText == text)
        #expect(schema.properties?.names == ["z", "a"])
    }

    @Test func readingKeepsDocumentOrderAndUnknownTypes() throws {
        let schema = try GeminiSchema(
            jsonValue: TestJSON.parse(
                #"{"type":"object","properties":{"b":{"type":"STRING"},"a":{"type":"DECIMAL128"}},"minItems":"3"}"#
            ))
        #expect(schema.type == .object)
        #expect(schema.properties?.names == ["b", "a"])
        #expect(schema.properties?["a"]?.type == .unknown("DECIMAL128"))
        #expect(schema.minItems == 3)
        #expect(
            schema.jsonValue.compactText
                == #"{"type":"OBJECT","minItems":3,"properties":{"b":{"type":"STRING"},"a":{"type":"DECIMAL128"}}}"#
        )
    }

    static let readErrors: [(String, String)] = [
        (
            #"{"type":"OBJECT","additionalProperties":false}"#,
            #"$: unknown Gemini Schema keyword "additionalProperties""#
        ),
        (#"{"properties":{"a":{"items":{"type":3}}}}"#, "$.properties.a.items.type: expected a string"),
        (#"{"required":["a",1]}"#, "$.required: expected an array of strings"),
        (#"{"maxItems":1.5}"#, "$.maxItems: expected an integer"),
        (#"{"anyOf":[{"type":"STRING"},"x"]}"#, "$.anyOf[1]: expected a schema object"),
        (#"[1]"#, "$: expected a schema object"),
    ]

    @Test(arguments: readErrors)
    func readingRejectsMalformedFields(text: String, expected: String) {
        #expect(throws: GeminiSchemaError.self) { try GeminiSchema(jsonValue: TestJSON.parse(text)) }
        do {
            _ = try GeminiSchema(jsonValue: TestJSON.parse(text))
        } catch {
            #expect("\(error)" == expected)
        }
    }

    @Test func lenientReadingIgnoresUnknownKeys() throws {
        let schema = try GeminiSchema(
            jsonValue: TestJSON.parse(#"{"type":"STRING","x-new":1}"#), strict: false)
        #expect(schema == .string())
    }

    @Test func deepNestingIsRefusedNotACrash() {
        var value = JSONValue.object([JSONMember("type", .string("STRING"))])
        for _ in 0..<200 { value = .object([JSONMember("items", value)]) }
        #expect(throws: GeminiSchemaError.self) { try GeminiSchema(jsonValue: value) }
        let deepSyntax = String(repeating: "[", count: 300) + "string" + String(repeating: "]", count: 300)
        #expect(throws: GeminiSchemaSyntaxError.self) { try GeminiSchema.parseTypeSyntax(deepSyntax) }
    }

    @Test func typeNamesReadCaseInsensitively() {
        #expect(GeminiSchemaType(rawValue: "integer") == .integer)
        #expect(GeminiSchemaType(rawValue: "Decimal").rawValue == "Decimal")
        #expect(GeminiSchemaType.integer.description == "integer")
    }

    @Test func fillingPropertyOrderingReachesNestedObjects() {
        let schema = GeminiSchema(
            type: .array,
            items: GeminiSchema(type: .object, properties: ["b": .string(), "a": .string()]))
        #expect(schema.fillingPropertyOrdering().items?.propertyOrdering == ["b", "a"])
    }
}
