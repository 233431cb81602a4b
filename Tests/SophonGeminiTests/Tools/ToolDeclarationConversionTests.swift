import SophonCore
import Testing

@testable import SophonGemini

/// The one conversion of a tool's JSON Schema into a declaration and its one rule for what it
/// cannot take (MCP tools, plugin tools, `tool @FILE`; issue 24).
@Suite struct ToolDeclarationConversionTests {
    /// Input schema text, and the declaration as sent or the one sentence of refusal.
    @Test(arguments: [
        ("get", #"{"type": "object"}"#, #"{"name":"get","description":"d"}"#),
        ("get", #"{"type": "object", "properties": {}}"#, #"{"name":"get","description":"d"}"#),
        (
            "get", #"{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}"#,
            #"{"name":"get","description":"d","parameters":{"type":"OBJECT","properties":{"a":{"type":"INTEGER"}},"required":["a"],"propertyOrdering":["a"]}}"#
        ),
        (
            "get",
            #"{"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}"#,
            "input schema $.properties.x: allOf with several schemas cannot be converted; merge them"
        ),
        (
            "9x", #"{"type": "object"}"#,
            "not a valid function name (letters, digits, _ : . -; at most 64; a letter or _ first)"
        ),
    ])
    func aToolBecomesADeclarationOrIsRefusedOneWay(name: String, schema: String, expected: String) throws {
        let outcome: String
        let inputSchema = try JSONValue(parsing: schema)
        do {
            let (declaration, _) = try FunctionDeclaration.converting(
                name: name, description: "d", inputSchema: inputSchema)
            outcome = declaration.jsonValue.compactText
        } catch {
            outcome = error.description
        }
        #expect(outcome == expected)
    }

    /// A schema the user wrote goes as written when the converter cannot take it, but only a
    /// JSON object: `5`, `"string"`, `null` or an array is refused with the converter's reason
    /// (they went as `parametersJsonSchema` and earned a 400).
    @Test(arguments: [
        (
            #"{"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}"#,
            #"{"name":"get","parametersJsonSchema":{"type":"object","properties":{"x":{"allOf":[{"type":"string"},{"minLength":1}]}}}}"#
        ),
        ("5", "input schema $: expected a schema object"),
        (#""string""#, "input schema $: expected a schema object"),
        ("null", "input schema $: expected a schema object"),
        (#"[{"type": "object"}]"#, "input schema $: expected a schema object"),
        ("true", "input schema $: a boolean schema (true/false) has no Gemini Schema equivalent"),
    ])
    func anUnconvertibleSchemaIsSentAsWrittenOnlyWhenItIsAnObject(schema: String, expected: String) throws {
        let outcome: String
        let inputSchema = try JSONValue(parsing: schema)
        do {
            let (declaration, _) = try FunctionDeclaration.converting(
                name: "get", description: nil, inputSchema: inputSchema, sendUnconvertible: true)
            outcome = declaration.jsonValue.compactText
        } catch {
            outcome = error.description
        }
        #expect(outcome == expected)
    }

    /// Every violation of a call's arguments, in one sentence, for every served call.
    @Test func argumentErrorsListEveryViolation() throws {
        let declaration = FunctionDeclaration(
            name: "add", parameters: try GeminiSchema.parseSpec("{ a: integer, b: integer }"))
        #expect(declaration.argumentError(try JSONValue(parsing: #"{"a": 1, "b": 2}"#)) == nil)
        #expect(
            declaration.argumentError(try JSONValue(parsing: #"{"a": "x"}"#))
                == #"invalid arguments: $: missing required property "b"; $.a: expected integer, got string "x""#
        )
    }
}
