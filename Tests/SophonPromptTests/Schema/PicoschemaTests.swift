import SophonCore
import Testing

@testable import SophonPrompt

/// Picoschema to JSON Schema, each form with its exact output.
@Suite struct PicoschemaTests {
    func schema(_ json: String, schemas: [String: JSONValue] = [:]) throws -> String {
        try Picoschema(schemas: schemas).jsonSchema(try JSONValue(parsing: json)).compactText
    }

    @Test func scalarsWithAndWithoutDescriptions() throws {
        #expect(try schema(#""string""#) == #"{"type":"string"}"#)
        #expect(try schema(#""integer, how many""#) == #"{"type":"integer","description":"how many"}"#)
        #expect(try schema(#""any""#) == "{}")
    }

    @Test func objectsRequiredOptionalArraysEnumsWildcards() throws {
        let pico =
            #"{"name": "string", "age?": "integer", "tags(array, labels)": "string", "kind(enum)": ["a", "b"], "(*)": "number"}"#
        #expect(
            try schema(pico)
                == #"{"type":"object","properties":{"name":{"type":"string"},"age":{"type":["integer","null"]},"tags":{"type":"array","items":{"type":"string"},"description":"labels"},"kind":{"enum":["a","b"]}},"required":["name","tags","kind"],"additionalProperties":{"type":"number"}}"#
        )
        #expect(
            try schema(#"{"p?(object)": {"x": "boolean"}}"#)
                == #"{"type":"object","properties":{"p":{"type":["object","null"],"properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}},"additionalProperties":false}"#
        )
        #expect(
            try schema(#"{"e?(enum)": [1]}"#)
                == #"{"type":"object","properties":{"e":{"enum":[1,null]}},"additionalProperties":false}"#)
    }

    @Test func jsonSchemaIsKeptAndNamedSchemasResolve() throws {
        #expect(try schema(#"{"type": "string", "minLength": 2}"#) == #"{"type":"string","minLength":2}"#)
        #expect(
            try schema(#"{"properties": {"a": {"type": "string"}}}"#)
                == #"{"properties":{"a":{"type":"string"}},"type":"object"}"#)
        let named = ["Point": try JSONValue(parsing: #"{"type": "object"}"#)]
        #expect(try schema(#""Point, where""#, schemas: named) == #"{"type":"object","description":"where"}"#)
    }

    @Test func unknownTypesThrow() {
        #expect(throws: PicoschemaError(type: "Widget")) { try self.schema(#""Widget""#) }
        #expect(throws: PicoschemaError(type: "list", parenthesized: true)) {
            try self.schema(#"{"a(list)": "string"}"#)
        }
    }
}
