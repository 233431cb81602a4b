import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// `tool NAME @FILE` with a file that holds no schema object (breaker2): `5`, `null`, `[...]`
/// or a declaration whose `parametersJsonSchema` is not an object were declared and sent as
/// `"parametersJsonSchema": 5`, which the API refuses with a 400. Now refused at `tool`, typed,
/// with nothing declared.
@Suite(.childSlots) struct ToolSchemaFileTests {
    @Test func aFileThatHoldsNoSchemaObjectIsRefused() async throws {
        let shell = try await GeminiShell()
        try shell.write("five.json", "5\n")
        try shell.write("list.json", #"[{"type": "object"}]"# + "\n")
        try shell.write("whole.json", #"{"name": "y", "parametersJsonSchema": 5}"# + "\n")
        try shell.write("param.json", #"{"name": "y", "parameters": [1]}"# + "\n")
        let outcome = try await shell.run([
            "-c", "tool a @five.json", "-c", "tool b @list.json", "-c", "tool c @whole.json", "-c",
            "tool d @param.json", "-c", "tools",
        ])
        #expect(
            outcome.stderr == """
                -c:1:1: error: tool: 'a' input schema $: expected a schema object
                -c:2:1: error: tool: 'b' input schema $: expected a schema object
                -c:3:1: error: tool: 'y' input schema $: expected a schema object
                -c:4:1: error: tool: 'y' input schema $: expected a schema object

                """)
        #expect(outcome.stdout == "(no tools; declare one with 'tool NAME SPEC')\n")
        #expect(outcome.status == 1)
    }

    /// The JSON Schema the converter cannot take still goes as written when it is an object;
    /// `tool show` under `--json` gives the declaration as an object, as `schema show` gives
    /// the schema (it was a string of pretty JSON).
    @Test func anUnconvertibleSchemaObjectStillGoesAsWritten() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "all.json",
            #"{"type": "object", "properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1}]}}}"#)
        let outcome = try await shell.run(["--json", "-c", "tool a @all.json", "-c", "tool show a"])
        #expect(
            outcome.stdout == """
                {"command":"tool a @all.json","ok":true}
                {"command":"tool show a","ok":true,"result":{"name":"a","parametersJsonSchema":{"type":"object","properties":{"x":{"allOf":[{"type":"string"},{"minLength":1}]}}}}}

                """)
        #expect(outcome.status == 0)
    }
}
