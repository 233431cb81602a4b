import Foundation
import SophonCore
import Testing

/// Prompt-file mistakes found by a newcomer, through the real binary against
/// scripts/fake_gemini.py: each is a typed error at FILE:LINE:COL, exit 1, and nothing is sent
/// (docs/prompts.md, "Errors"); and `prompt --json` / `embed --json` print one JSON object.
@Suite struct PromptFileErrorShellTests {
    @Test func aPartialThatIncludesItselfNamesThePartialAndTheChain() throws {
        let shell = try GeminiShell()
        try shell.write("loop.prompt", "---\nmodel: m\n---\nStart {{> self}}\n")
        try shell.write("_self.prompt", "Hi {{> self}}\n")
        let outcome = try shell.run(["-c", "prompt loop.prompt"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:1: error: prompt: _self.prompt:1:4: partial 'self' includes itself (self > self): "
                + "partials nest at most 32 levels deep\n")
        #expect(try shell.server.requests().isEmpty)
        let json = try shell.run(["--json", "prompt", "render", "loop.prompt"])
        let envelope = try JSONValue(parsing: json.stdout)
        #expect(envelope["error"]?["kind"] == .string("parseError"))
    }

    @Test func anErrorInsideAPartialNamesThePartialsFile() throws {
        let shell = try GeminiShell()
        try shell.write("card.prompt", "---\nmodel: m\n---\nStart\n{{> sig}}\n")
        try shell.write("_sig.prompt", "Bye\n  {{shout name}}\n")
        let outcome = try shell.run(["prompt", "render", "card.prompt"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "error: prompt render: _sig.prompt:2:3: unknown helper 'shout'\n")
    }

    @Test(arguments: [
        (
            "prompt hi.prompt --data '[1]'",
            #"prompt: --data:1:1: expected a JSON object {"input", "context", "messages", "docs"}, got an array"#
        ),
        (
            #"prompt hi.prompt --data '{"name": "Ann"}'"#,
            #"prompt: --data:1:1: unknown member 'name': the data is {"input", "context", "messages", "docs"}, and the template's values go in "input""#
        ),
        (
            "prompt render hi.prompt --data @data.json",
            "prompt render: data.json:2:3: $.context: expected an object, got an array"
        ),
        (
            "prompt render hi.prompt --options '[1]'",
            "prompt render: --options:1:1: expected a JSON object, got an array"
        ),
        (
            "prompt render hi.prompt --tools 3",
            "prompt render: --tools:1:1: expected a JSON object, got a number"
        ),
        (
            "prompt hi.prompt --data '{\"input\": 3}' name=Ann",
            "prompt: --data:1:1: $.input: expected an object, got a number"
        ),
    ])
    func dataThatIsNotTheDataArgumentIsRefused(line: String, message: String) throws {
        let shell = try GeminiShell()
        try shell.write("hi.prompt", "Hi {{name}}")
        try shell.write("data.json", "\n  {\"context\": []}\n")
        let outcome = try shell.run(["-c", line])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "-c:1:1: error: \(message)\n")
        #expect(try shell.server.requests().isEmpty)
    }

    /// `prompt --json FILE` (PRODUCT §12: `--json` right after the command word) prints what
    /// `sophon --json prompt FILE` prints, sends the same request, and keeps the answer as `$last`.
    @Test func promptJSONPrintsOneObjectAndSendsTheSameRequest() throws {
        let shell = try GeminiShell()
        try shell.write("hi.prompt", "---\nconfig:\n  temperature: 0.2\n---\nHi {{name}}")
        let reply = #"{"kind": "generate", "text": "Hello, Ann."}"#
        try shell.server.script([reply, reply])
        let flag = try shell.run(["-c", "prompt --json hi.prompt name=Ann", "-c", "echo $last"])
        #expect(flag.stderr == "")
        #expect(flag.status == 0)
        let lines = flag.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 3)
        let envelope = try JSONValue(parsing: String(lines[0]))
        #expect(envelope["command"] == .string("prompt --json hi.prompt name=Ann"))
        #expect(envelope["ok"] == .bool(true))
        #expect(envelope["result"] == .string("Hello, Ann."))
        #expect(envelope["model"] == .string("gemini-3.8-flash"))
        #expect(envelope["retries"] == .integer(0))
        #expect(lines[1] == "Hello, Ann.")
        let global = try shell.run(["--json", "prompt", "hi.prompt", "name=Ann"])
        #expect(global.status == 0)
        let requests = try shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[0].path == requests[1].path)
        #expect(requests[0].bodyText == requests[1].bodyText)
    }

    @Test func embedJSONPrintsOneObjectWithTheVectorAndItsFacts() throws {
        let shell = try GeminiShell()
        let outcome = try shell.run(["-c", "embed --json --dimensions 2 hello", "-c", "echo $last"])
        #expect(outcome.stderr == "")
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        try #require(lines.count == 2)
        let envelope = try JSONValue(parsing: String(lines[0]))
        #expect(envelope["result"]?.compactText == lines[1].description)
        #expect(envelope["dimensions"] == .integer(2))
        #expect(envelope["model"] == .string("gemini-embedding-001"))
        #expect(envelope["retries"] == .integer(0))
    }
}
