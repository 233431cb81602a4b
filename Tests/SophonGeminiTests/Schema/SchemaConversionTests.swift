import SophonCore
import Testing

@testable import SophonGemini

@Suite struct SchemaConversionTests {
    static func convert(_ text: String) throws -> JSONSchemaConverter.Conversion {
        try JSONSchemaConverter.convert(TestJSON.parse(text))
    }

    @Test func inlinesDefsAndDropsWhatTheAPIRejects() throws {
        let conversion = try Self.convert(
            #"""
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "$id": "movie",
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "title": {"type": "string", "minLength": 1, "examples": ["Up"]},
                "director": {"$ref": "#/$defs/person", "description": "Who directed it"},
                "cast": {"type": "array", "items": {"$ref": "#/definitions/person"}, "maxItems": 5}
              },
              "required": ["title"],
              "$defs": {"person": {"type": "object", "properties": {"name": {"type": "string"}},
                                   "required": ["name"], "additionalProperties": false}},
              "definitions": {"person": {"$ref": "#/$defs/person"}}
            }
            """#)
        let person =
            #"{"type":"OBJECT","properties":{"name":{"type":"STRING"}},"required":["name"],"propertyOrdering":["name"]}"#
        let director =
            #"{"type":"OBJECT","description":"Who directed it","properties":{"name":{"type":"STRING"}},"required":["name"],"propertyOrdering":["name"]}"#
        #expect(
            conversion.schema.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"title":{"type":"STRING","minLength":1},"director":"#
                + director
                + #","cast":{"type":"ARRAY","items":"# + person + #","maxItems":5}},"required":["title"],"#
                + #""propertyOrdering":["title","director","cast"]}"#)
        #expect(
            conversion.notes.map(\.description) == [
                #"$: dropped "$schema" (not accepted by the Gemini API)"#,
                #"$: dropped "$id" (not accepted by the Gemini API)"#,
                #"$: dropped "additionalProperties" (not accepted by the Gemini API)"#,
                #"$.properties.title: dropped "examples" (not accepted by the Gemini API)"#,
                #"$.properties.director: dropped "additionalProperties" (not accepted by the Gemini API)"#,
                #"$.properties.cast.items: dropped "additionalProperties" (not accepted by the Gemini API)"#,
            ])
    }

    static let cases: [(String, String)] = [
        (#"{"const":"yes"}"#, #"{"type":"STRING","enum":["yes"]}"#),
        (
            #"{"type":["string","null"],"format":"date-time"}"#,
            #"{"type":"STRING","format":"date-time","nullable":true}"#
        ),
        (
            #"{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"n"}"#,
            #"{"type":"INTEGER","description":"n","nullable":true}"#
        ),
        (
            ##"{"oneOf":[{"type":"null"},{"$ref":"#/$defs/s"}],"$defs":{"s":{"type":"string","maxLength":3}}}"##,
            #"{"type":"STRING","nullable":true,"maxLength":3}"#
        ),
        (
            #"{"anyOf":[{"type":"string"},{"type":"number"},{"type":"null"}]}"#,
            #"{"anyOf":[{"type":"STRING","nullable":true},{"type":"NUMBER","nullable":true}]}"#
        ),
        (#"{"enum":["a",null]}"#, #"{"type":"STRING","nullable":true,"enum":["a"]}"#),
        (#"{"type":"integer","enum":[1,2],"minimum":0}"#, #"{"type":"STRING","enum":["1","2"],"minimum":0}"#),
        (#"{"type":"number","exclusiveMinimum":0,"maximum":1e2}"#, #"{"type":"NUMBER","maximum":100}"#),
        (#"{"allOf":[{"type":"boolean"}],"title":"flag"}"#, #"{"type":"BOOLEAN","title":"flag"}"#),
        (
            #"{"type":"OBJECT","properties":{"b":{"type":"STRING"},"a":{"type":"INTEGER"}},"nullable":true}"#,
            #"{"type":"OBJECT","nullable":true,"properties":{"b":{"type":"STRING"},"a":{"type":"INTEGER"}},"propertyOrdering":["b","a"]}"#
        ),
        (
            #"{"type":"object","properties":{"a":{"type":"string"}},"propertyOrdering":["a"],"example":{"a":"x"}}"#,
            #"{"type":"OBJECT","properties":{"a":{"type":"STRING"}},"propertyOrdering":["a"],"example":{"a":"x"}}"#
        ),
        (
            ##"{"properties":{"a":{"$ref":"#/properties/b/items"},"b":{"type":"array","items":{"type":"integer"}}}}"##,
            #"{"properties":{"a":{"type":"INTEGER"},"b":{"type":"ARRAY","items":{"type":"INTEGER"}}},"propertyOrdering":["a","b"]}"#
        ),
        (
            ##"{"type":"array","items":{"$ref":"#/$defs/a~1b"},"$defs":{"a/b":{"type":"boolean"}}}"##,
            #"{"type":"ARRAY","items":{"type":"BOOLEAN"}}"#
        ),
    ]

    @Test(arguments: cases)
    func converts(input: String, expected: String) throws {
        #expect(try Self.convert(input).schema.jsonValue.compactText == expected)
    }

    static let noteCases: [(String, [String])] = [
        (
            #"{"type":"integer","enum":[1,2]}"#,
            [
                "$: enum values written as strings and type set to STRING (was INTEGER): the API takes string enums only"
            ]
        ),
        (
            #"{"type":"number","exclusiveMinimum":0,"default":1,"$comment":"c","discriminator":{}}"#,
            [
                #"$: dropped "exclusiveMinimum" (no Gemini Schema equivalent)"#,
                #"$: dropped "default" (not accepted by the Gemini API)"#,
                #"$: dropped "$comment" (not accepted by the Gemini API)"#,
                #"$: dropped "discriminator" (not accepted by the Gemini API)"#,
            ]
        ),
        (
            #"{"oneOf":[{"type":"string"},{"type":"integer"}],"description":"d"}"#,
            [
                "$: oneOf read as anyOf",
                #"$: dropped "description" beside anyOf (the API wants anyOf alone)"#,
            ]
        ),
        (
            #"{"type":"object"}"#,
            ["$: an object without properties: the Gemini API rejects OBJECT with no properties"]
        ),
    ]

    @Test(arguments: noteCases)
    func notes(input: String, expected: [String]) throws {
        #expect(try Self.convert(input).notes.map(\.description) == expected)
    }

    static let errorCases: [(String, GeminiSchemaError)] = [
        (
            ##"{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"child":{"$ref":"#/$defs/node"}}}}}"##,
            .recursiveReference(path: "$.properties.next.properties.child", reference: "#/$defs/node")
        ),
        (##"{"$ref":"#"}"##, .recursiveReference(path: "$", reference: "#")),
        (
            ##"{"items":{"$ref":"#/$defs/missing"}}"##,
            .unresolvableReference(path: "$.items", reference: "#/$defs/missing")
        ),
        (#"{"$ref":"other.json#/a"}"#, .unresolvableReference(path: "$", reference: "other.json#/a")),
        (
            #"{"type":["string","integer"]}"#,
            .unsupported(
                path: "$.type", reason: #"several types ("string", "integer") cannot be converted; use anyOf"#
            )
        ),
        (#"{"type":"date"}"#, .unsupported(path: "$.type", reason: #"unknown type "date""#)),
        (
            #"{"allOf":[{"type":"string"},{"minLength":1}]}"#,
            .unsupported(path: "$", reason: "allOf with several schemas cannot be converted; merge them")
        ),
        (
            #"{"properties":{"a":true}}"#,
            .unsupported(
                path: "$.properties.a",
                reason: "a boolean schema (true/false) has no Gemini Schema equivalent")
        ),
        (
            #"{"enum":[{"a":1}]}"#,
            .unsupported(path: "$.enum", reason: "enum values must be strings, numbers or booleans")
        ),
        (
            #"{"items":[{"type":"string"}]}"#,
            .unsupported(path: "$.items", reason: "tuple items (an array of schemas) cannot be converted")
        ),
        (#"{"required":"a"}"#, .invalidValue(path: "$.required", expected: "an array of strings")),
        (
            #"{"type":["string","null"],"example":1e400}"#,
            .invalidValue(path: "$.example", expected: "a value whose numbers are finite doubles")
        ),
        (
            #"{"properties":{"a":{"example":{"n":[1,-1e400]}}}}"#,
            .invalidValue(
                path: "$.properties.a.example", expected: "a value whose numbers are finite doubles")
        ),
    ]

    @Test(arguments: errorCases)
    func errors(input: String, expected: GeminiSchemaError) {
        #expect(throws: expected) { try Self.convert(input) }
    }

    @Test func writesJSONSchemaAndConvertsBack() throws {
        let schema = try GeminiSchema.parseTypeSyntax(
            #"{ title: string "The title", year?: int | null, tags: [string], state: "a" | "b" | null, pick: { x: float } }"#
        )
        let jsonSchema = schema.jsonSchemaValue
        #expect(
            jsonSchema.compactText
                == #"{"type":"object","properties":{"title":{"type":"string","description":"The title"},"#
                + #""year":{"type":["integer","null"]},"tags":{"type":"array","items":{"type":"string"}},"#
                + #""state":{"type":["string","null"],"enum":["a","b",null]},"#
                + #""pick":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}},"#
                + #""required":["title","tags","state","pick"]}"#
        )
        let back = try JSONSchemaConverter.convert(jsonSchema)
        #expect(back.schema == schema)
        #expect(back.notes.isEmpty)
        let union = GeminiSchema(nullable: true, anyOf: [.string(), .integer()])
        #expect(
            union.jsonSchemaValue.compactText
                == #"{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}"#)
    }

    @Test func exponentialExpansionIsRefused() {
        // Each definition uses the previous one twice: 2^30 schemas once inlined.
        var definitions: [JSONMember] = [JSONMember("d0", .object([JSONMember("type", .string("string"))]))]
        for level in 1...30 {
            let reference = JSONValue.object([JSONMember("$ref", .string("#/$defs/d\(level - 1)"))])
            definitions.append(
                JSONMember(
                    "d\(level)",
                    .object([
                        JSONMember("type", .string("object")),
                        JSONMember(
                            "properties", .object([JSONMember("a", reference), JSONMember("b", reference)])),
                    ])))
        }
        let document = JSONValue.object([
            JSONMember("$ref", .string("#/$defs/d30")), JSONMember("$defs", .object(definitions)),
        ])
        #expect(throws: GeminiSchemaError.self) { try JSONSchemaConverter.convert(document) }
    }

    @Test func recursiveReferenceMessage() {
        let error = GeminiSchemaError.recursiveReference(path: "$.a", reference: "#/$defs/node")
        #expect(error.description == ##"$.a: recursive reference "#/$defs/node" cannot be inlined"##)
    }

    static let dialectCases: [(String, GeminiSchemaDocument.Dialect)] = [
        (#"{"type":"OBJECT","properties":{"a":{"type":"STRING"}}}"#, .geminiSchema),
        (#"{"type":"object","properties":{"a":{"type":"string"}}}"#, .jsonSchema),
        (#"{"properties":{"a":{"type":"string","nullable":true}}}"#, .geminiSchema),
        (##"{"type":"ARRAY","items":{"$ref":"#/$defs/x"}}"##, .geminiSchema),
        (#"{"$schema":"x","properties":{"propertyOrdering":{"type":"string"}}}"#, .jsonSchema),
        (#"{"properties":{"a":{"type":["string","null"]}},"propertyOrdering":["a"]}"#, .jsonSchema),
        (#"{"type":"string","example":{"type":"OBJECT"}}"#, .jsonSchema),
    ]

    @Test(arguments: dialectCases)
    func detectsTheDialect(input: String, expected: GeminiSchemaDocument.Dialect) {
        #expect(GeminiSchemaDocument.Dialect.detect(TestJSON.parse(input)) == expected)
    }

    @Test func documentReadsGeminiSchemaStrictlyAndFillsOrdering() throws {
        let document = try GeminiSchemaDocument(
            TestJSON.parse(#"{"type":"OBJECT","properties":{"b":{"type":"STRING"},"a":{"type":"INTEGER"}}}"#))
        #expect(document.dialect == .geminiSchema)
        #expect(document.notes.isEmpty)
        #expect(document.schema.propertyOrdering == ["b", "a"])
        #expect(throws: GeminiSchemaError.unknownKeyword(path: "$", keyword: "$defs")) {
            try GeminiSchemaDocument(TestJSON.parse(#"{"type":"OBJECT","$defs":{}}"#))
        }
    }

    @Test func documentConvertsJSONSchema() throws {
        let document = try GeminiSchemaDocument(
            TestJSON.parse(
                #"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#))
        #expect(document.dialect == .jsonSchema)
        #expect(
            document.schema.jsonValue.compactText
                == #"{"type":"OBJECT","properties":{"a":{"type":"STRING"}},"propertyOrdering":["a"]}"#)
        #expect(document.notes.count == 1)
    }
}
