import Foundation
import SophonCore
import SophonGemini
import SophonTestSupport
import Testing

/// Issue 25 point 3, end to end: under `--json` a command that reports (`show`, `schema show`,
/// `models`, `history`, `tools`, `batch list`, `batch status`, `validate`, `tokens`) prints its
/// facts as named members, never the sentence in a string (PRODUCT.md §5, "Output").
@Suite(.childSlots) struct JSONResultTests {
    /// One object per command line of `outcome`'s stdout, parsed.
    static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    static func objects(_ outcome: SophonProcess.Outcome) throws -> [JSONValue] {
        try outcome.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    @Test func showGivesTheSettingsByName() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "-c", "set temperature 0.5\nshow\nshow temperature"])
        let lines = try Self.objects(outcome)
        #expect(lines.count == 3)
        #expect(lines[1]["result"]?["temperature"] == .string("0.5"))
        #expect(lines[1]["result"]?["output"] == .string("json"))
        #expect(lines[1]["result"]?["stream"] == .string("on"))
        #expect(lines[2].compactText == #"{"command":"show temperature","ok":true,"result":"0.5"}"#)
        #expect(outcome.status == 0)
    }

    @Test func schemaShowIsTheSchemaObjectAndPicoschemaNamesItsThreeForms() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "--json", "-c", "schema { title: string, year?: integer }\nschema show\nschema show --picoschema",
        ])
        let lines = try Self.objects(outcome)
        #expect(lines.count == 3)
        #expect(
            lines[1].compactText
                == #"{"command":"schema show","ok":true,"result":{"type":"OBJECT","properties":"#
                + #"{"title":{"type":"STRING"},"year":{"type":"INTEGER"}},"required":["title"],"#
                + #""propertyOrdering":["title","year"]}}"#)
        #expect(lines[2]["result"]?["picoschema"] == .string("title: string\nyear?: integer"))
        #expect(lines[2]["result"]?["typeSyntax"] == .string("{ title: string, year?: integer }"))
        #expect(
            lines[2]["result"]?["jsonSchema"]?.compactText
                == #"{"type":"object","properties":{"title":{"type":"string"},"year":{"type":"integer"}},"#
                + #""required":["title"]}"#)
    }

    @Test func validateGivesTheViolationsWithTheirPaths() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run([
            "--json", "-c",
            #"schema { title: string }"# + "\n" + #"validate {"title": 1}"# + "\n"
                + #"validate {"title": "x"}"#,
        ])
        let lines = try Self.objects(outcome)
        #expect(lines.count == 3)
        let error = lines[1]["error"]
        #expect(error?["kind"] == .string("validationFailed"))
        #expect(Self.items(error?["violations"]).count == 1)
        #expect(error?["violations"]?[0]?["path"] == .string("$.title"))
        #expect(lines[2]["result"]?.compactText == #"{"valid":true,"violations":[]}"#)
        #expect(outcome.status == 1)
    }

    @Test func modelsHistoryAndToolsAreArraysOfObjects() async throws {
        let shell = try await GeminiShell()
        try await shell.server.script([#"{"kind": "generate", "text": "Hello."}"#])
        let outcome = try await shell.run([
            "--json", "-c",
            "set model gemini-2.5-flash\nmodels\nchat hi\nhistory\n"
                + #"tool weather { city: string } "the weather""# + "\ntools",
        ])
        let lines = try Self.objects(outcome)
        #expect(lines.count == 6)
        let models = Self.items(lines[1]["result"]?["models"])
        #expect(models.map { $0["id"] } == GeminiModel.allPresets.map { .string($0.id) })
        let current = models.filter { $0["current"] == JSONValue.bool(true) }
        #expect(
            current.map(\.compactText) == [
                #"{"id":"gemini-2.5-flash","name":"gemini25Flash","freeTier":true,"paidOnly":false,"#
                    + #""deprecated":false,"successor":"gemini-3.5-flash","current":true}"#
            ])
        #expect(
            lines[3]["result"]?.compactText
                == #"{"turns":[{"role":"user","text":"hi"},{"role":"model","text":"Hello."}]}"#)
        #expect(
            lines[5]["result"]?.compactText
                == #"{"tools":[{"name":"weather","kind":"function","servedBy":"nobody (tool-reply)","#
                + #""description":"the weather"}]}"#)
    }

    @Test func batchListAndStatusGiveTheStateAndTheCountsAsNumbers() async throws {
        let shell = try await GeminiShell()
        try shell.write(
            "in.jsonl", #"{"key": "a", "prompt": "hi"}"# + "\n" + #"{"key": "b", "prompt": "yo"}"# + "\n")
        let outcome = try await shell.run([
            "--json", "-c", "batch list\nbatch submit in.jsonl\nbatch status in\nbatch list",
        ])
        let lines = try Self.objects(outcome)
        #expect(lines.count == 4)
        #expect(lines[0].compactText == #"{"command":"batch list","ok":true,"result":{"batches":[]}}"#)
        let status = lines[2]["result"]
        #expect(status?["displayName"] == .string("in"))
        #expect(status?["state"] == .string("PENDING"))
        #expect(status?["requestCount"] == .integer(2))
        #expect(status?["succeeded"] == .integer(0))
        #expect(status?["failed"] == .integer(0))
        #expect(status?["pending"] == .integer(2))
        // The fake server moves a job on each time it is read: the list sees it RUNNING.
        let listed = Self.items(lines[3]["result"]?["batches"])
        #expect(listed.count == 1)
        #expect(listed.first?["name"] == status?["name"])
        #expect(listed.first?["state"] == .string("RUNNING"))
        #expect(listed.first?["requestCount"] == .integer(2))
    }

    @Test func tokensReportsTheCountedPromptAsItsUsage() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["--json", "-c", "tokens hello there"])
        let line = try JSONValue(parsing: outcome.stdout)
        #expect(line["result"] == .integer(2))
        #expect(
            line["usage"]?.compactText
                == #"{"promptTokens":2,"outputTokens":0,"thoughtsTokens":0,"totalTokens":2}"#)
        #expect(outcome.status == 0)
    }

    @Test func withoutJSONTheReportsStayText() async throws {
        let shell = try await GeminiShell()
        let outcome = try await shell.run(["-c", "batch list\nhistory\ntools"])
        #expect(
            outcome.stdout
                == "(no batch jobs)\n(no conversation yet; start one with 'chat')\n"
                + "(no tools; declare one with 'tool NAME SPEC')\n")
    }
}
