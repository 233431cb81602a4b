import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Prompt-file mistakes found by a newcomer, through the real binary against
/// scripts/fake_gemini.py: each is a typed error at FILE:LINE:COL, exit 1, and nothing is sent
/// (docs/prompts.md, "Errors"); and `prompt --json` / `embed --json` print one JSON object.
@Suite(.childSlots) struct PromptFileErrorShellTests {
    @Test func aPartialThatIncludesItselfNamesThePartialAndTheChain() async throws {
        let shell = try await GeminiShell()
        try shell.write("loop.prompt", "---\nmodel: m\n---\nStart {{> self}}\n")
        try shell.write("_self.prompt", "Hi {{> self}}\n")
        let outcome = try await shell.run(["-c", "prompt loop.prompt"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "-c:1:1: error: prompt: _self.prompt:1:4: partial 'self' includes itself (self > self): "
                + "partials nest at most 32 levels deep\n")
        #expect(try await shell.server.requests().isEmpty)
        let json = try await shell.run(["--json", "prompt", "render", "loop.prompt"])
        let envelope = try JSONValue(parsing: json.stdout)
        #expect(envelope["error"]?["kind"] == .string("parseError"))
    }

    /// `--data` of the template's values alone is the input: the same request as with
    /// `{"input": ...}`.
    @Test func dataOfTheValuesAloneIsTheInput() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "hi.prompt",
            "---\nmodel: gemini-2.5-flash\ninput:\n  schema:\n    name: string\n---\nHi {{name}}\n")
        let bare = try await shell.run([
            "prompt", "--dry-run", "--json", "hi.prompt", "--data", #"{"name": "Ann"}"#,
        ])
        let wrapped = try await shell.run([
            "prompt", "--dry-run", "--json", "hi.prompt", "--data", #"{"input": {"name": "Ann"}}"#,
        ])
        #expect(bare.status == 0)
        #expect(bare.stderr == "")
        let result = try JSONValue(parsing: bare.stdout)["result"]
        #expect(result == (try JSONValue(parsing: wrapped.stdout)["result"]))
        #expect(
            result?["body"]
                == (try JSONValue(parsing: #"{"contents":[{"role":"user","parts":[{"text":"Hi Ann"}]}]}"#)))
        let missing = try await shell.run(["prompt", "--dry-run", "hi.prompt", "--data", #"{"nam": "Ann"}"#])
        // The values alone are the input, so input.schema names what they lack.
        #expect(
            missing
                == .init(
                    stdout: "",
                    stderr: "error: prompt: hi.prompt: input $: missing required property \"name\"\n",
                    status: 1))
    }

    @Test func anErrorInsideAPartialNamesThePartialsFile() async throws {
        let shell = try await GeminiShell()
        try shell.write("card.prompt", "---\nmodel: m\n---\nStart\n{{> sig}}\n")
        try shell.write("_sig.prompt", "Bye\n  {{shout name}}\n")
        let outcome = try await shell.run(["prompt", "render", "card.prompt"])
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
            #"prompt hi.prompt --data '{"input": {}, "name": "Ann"}'"#,
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
        (
            #"prompt hi.prompt --data '{"messages": [{"role": "bot", "content": [{"text": "Hey"}]}]}'"#,
            "prompt: hi.prompt: a message of role 'bot' cannot be sent; the roles are user, model, system and tool"
        ),
    ])
    func dataThatIsNotTheDataArgumentIsRefused(line: String, message: String) async throws {
        let shell = try await GeminiShell()
        try shell.write("hi.prompt", "Hi {{name}}")
        try shell.write("data.json", "\n  {\"context\": []}\n")
        let outcome = try await shell.run(["-c", line])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == "-c:1:1: error: \(message)\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    /// `prompt --json FILE` (PRODUCT §12: `--json` right after the command word) prints what
    /// `sophon --json prompt FILE` prints, sends the same request, and keeps the answer as `$last`.
    /// A frontmatter `model` that is not a string was dropped for the session's model, and one
    /// that is not a model ID failed each call on its own (`run --prompt` wrote every key as
    /// failed, `compare --prompts` sent the other files): now each fails the file at the value's
    /// place, with the command's prefix, before anything is sent.
    @Test(arguments: [
        ("model: 5", "bad.prompt:2:8: model: expected a model ID (a string), got 5"),
        ("model: [a]", "bad.prompt:2:8: model: expected a model ID (a string), got [\"a\"]"),
        ("model: openai/gpt-4", "bad.prompt:2:8: model: 'openai/gpt-4' is not a valid model ID"),
        (#"model: """#, "bad.prompt:2:8: model: '' is not a valid model ID"),
    ])
    func aFrontmatterModelThatIsNoModelIDFailsTheFileBeforeSending(line: String, message: String)
        async throws
    {
        let shell = try await GeminiShell()
        try shell.write("bad.prompt", "---\n\(line)\n---\nHi\n")
        try shell.write("good.prompt", "Hello\n")
        try shell.write("in.jsonl", #"{"key": "a"}"# + "\n")
        for (command, prefix) in [
            ("prompt bad.prompt", "prompt"), ("run in.jsonl -o out.jsonl --prompt bad.prompt", "run"),
            ("compare --prompts good.prompt,bad.prompt", "compare"),
        ] {
            let outcome = try await shell.run(["-c", command])
            #expect(outcome == .init(stdout: "", stderr: "-c:1:1: error: \(prefix): \(message)\n", status: 1))
        }
        let json = try await shell.run(["--json", "prompt", "bad.prompt"])
        #expect(try JSONValue(parsing: json.stdout)["error"]?["kind"] == .string("invalidModelID"))
        #expect(shell.read("out.jsonl") == nil)
        #expect(try await shell.server.requests().isEmpty)
        // `prompt render` prints the frontmatter as written, as Dotprompt does.
        let render = try await shell.run(["prompt", "render", "bad.prompt"])
        #expect(render.status == 0)
    }

    /// `null` (or `~`) is no model: the session's is used.
    @Test func aNullFrontmatterModelUsesTheSessionsModel() async throws {
        let shell = try await GeminiShell()
        try shell.write("none.prompt", "---\nmodel: ~\n---\nHi\n")
        let outcome = try await shell.run(["-c", "set model gemini-2.5-pro", "-c", "prompt none.prompt"])
        #expect(outcome.status == 0)
        #expect(
            try await shell.server.requests().map(\.path) == [
                "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
            ])
    }

    @Test func promptJSONPrintsOneObjectAndSendsTheSameRequest() async throws {
        let shell = try await GeminiShell()
        try shell.write("hi.prompt", "---\nconfig:\n  temperature: 0.2\n---\nHi {{name}}")
        let reply = #"{"kind": "generate", "text": "Hello, Ann."}"#
        try await shell.server.script([reply, reply])
        let flag = try await shell.run(["-c", "prompt --json hi.prompt name=Ann", "-c", "echo $last"])
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
        let global = try await shell.run(["--json", "prompt", "hi.prompt", "name=Ann"])
        #expect(global.status == 0)
        let requests = try await shell.server.requests()
        try #require(requests.count == 2)
        #expect(requests[0].path == requests[1].path)
        #expect(requests[0].bodyText == requests[1].bodyText)
    }

    @Test func embedJSONPrintsOneObjectWithTheVectorAndItsFacts() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "embed --json --dimensions 2 hello", "-c", "echo $last"])
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
