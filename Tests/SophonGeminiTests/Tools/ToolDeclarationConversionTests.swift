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
