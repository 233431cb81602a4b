import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Every shell feature on Vertex AI either works (the request in Vertex AI's form, served by
/// scripts/fake_gemini.py, which answers only those forms on Vertex AI's paths) or says why not
/// before anything is sent, not even a token request (docs/vertex.md, "What works on Vertex AI").
@Suite(.childSlots) struct VertexFeatureTests {
    static let project = "/v1beta1/projects/proj-1/locations/us-central1/publishers/google/models/"

    /// The paths the server saw after the token grant.
    static func calls(_ shell: GeminiShell) async throws -> [String] {
        try await shell.server.paths().filter { $0 != "/token" }
    }

    @Test func embedEmbedMultiSimilarAndExpectSimilarEmbedOneTextARequestByPredict() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        try shell.write(
            "rows.jsonl", #"{"id": "a", "text": "red apple"}"# + "\n" + #"{"id": "b", "text": "blue sea"}"#)
        let outcome = try await shell.run([
            "-c",
            """
            embed --dimensions 4 red apple
            embed-multi docs rows.jsonl --dimensions 8
            expect "red apple" similar "red apple"
            similar docs red apple
            """,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("docs: 2 embedded, 0 skipped (already stored), 2 requests\n"))
        #expect(outcome.stdout.contains("1.0000  a\n"))
        let predict = Self.project + "gemini-embedding-001:predict"
        #expect(try await Self.calls(shell) == Array(repeating: predict, count: 6))
        let first = try await shell.server.requests().first { $0.path == predict }
        #expect(
            first?.bodyText
                == #"{"instances":[{"content":"red apple"}],"parameters":{"outputDimensionality":4}}"#)
    }

    @Test func tokensCountsWithTheRequestsFieldsAtTheRoot() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let outcome = try await shell.run(["-c", "set system be brief\ntokens three words here"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "5\n")
        let call = try await shell.server.requests().last
        #expect(call?.path == Self.project + "gemini-3.8-flash:countTokens")
        #expect(call?.body["generateContentRequest"] == nil)
        #expect(call?.body["contents"]?[0]?["role"] == .string("user"))
        #expect(call?.body["systemInstruction"]?["parts"]?[0]?["text"] == .string("be brief"))
    }

    @Test func interactionsResearchAndAgentSayWhyNotBeforeSending() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let ask = try await shell.run(["-c", "set api interactions\nask hi"])
        #expect(ask.status == 1)
        #expect(
            ask.stderr.split(separator: " ", maxSplits: 1).last
                == "error: interactions: Vertex AI serves the Interactions API only for agents provisioned in your project, not for models; 'set api generate-content' asks the same on Vertex AI, or 'set backend developer'\n"
        )
        let research = try await shell.run(["research", "why is the sky blue?"])
        #expect(research.status == 1)
        #expect(
            research.stderr
                == "error: research: Deep Research runs on the Gemini Developer API; Vertex AI serves the Interactions API only for agents provisioned in your project ('set backend developer' to start one)\n"
        )
        let agent = try await shell.run(["agent", "status", "v1_abc"])
        #expect(agent.status == 1)
        #expect(agent.stderr.hasPrefix("error: agent status: research jobs live on the Gemini Developer API"))
        let agents = try await shell.run(["agents"])
        #expect(agents.status == 0)
        #expect(agents.stdout == "(no research jobs yet; start one with 'research QUESTION')\n")
        #expect(try await shell.server.requests().isEmpty)
        let json = try await shell.run(["--json", "research", "why?"])
        let line = try JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(line["error"]?["kind"] == .string("notOnVertex"))
    }

    @Test func attachSendsMediaInlineOrSaysWhyNotBeforeSending() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        try shell.write("note.txt", "a small note")
        let small = try await shell.run(["-c", "attach note.txt\nask what does it say?"])
        #expect(small.status == 0, "\(small.stderr)")
        let body = try await shell.server.requests().last?.body
        #expect(body?["contents"]?[0]?["parts"]?[0]?["inlineData"]?["mimeType"] == .string("text/plain"))
        let before = try await shell.server.requests().count
        let big = shell.home.appendingPathComponent("big.txt")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(20 * 1024 * 1024 + 1))
        try handle.close()
        let refused = try await shell.run(["attach", "--mime", "text/plain", "big.txt"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: attach: 'big.txt' (20971521 bytes) does not fit inline (20000000 bytes left of the request's 20 MB) and Vertex AI has no Files API to upload it to; use a gs:// URI\n"
        )
        #expect(try await shell.server.requests().count == before)
    }

    @Test func batchListAndFilesUploadSayWhyNotBeforeSending() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        // `upload` is no subcommand of `files`: the command alone is named.
        for (command, named) in [
            (["batch", "list"], "batch list"), (["files", "upload", "x.txt"], "files"),
        ] {
            let outcome = try await shell.run(command)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.hasPrefix("error: \(named): Vertex AI"))
        }
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func cachesLiveUnderTheProjectAndExpressModeSaysWhyNot() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let outcome = try await shell.run([
            "-c", "cache create manual the whole manual text --system be exact\nset cache manual\nask hi",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let calls = try await shell.server.requests().filter { $0.path != "/token" }
        #expect(
            calls.map(\.path) == [
                "/v1beta1/projects/proj-1/locations/us-central1/cachedContents",
                Self.project + "gemini-3.8-flash:streamGenerateContent?alt=sse",
            ])
        #expect(
            calls[0].body["model"]
                == .string("projects/proj-1/locations/us-central1/publishers/google/models/gemini-3.8-flash"))
        #expect(calls[0].body["contents"]?[0]?["role"] == .string("user"))
        #expect(
            calls[1].body["cachedContent"]?.stringValue?.hasPrefix(
                "projects/proj-1/locations/us-central1/cachedContents/") == true)
        let express = try await GeminiShell()
        express.extraEnvironment = ["GOOGLE_GENAI_USE_VERTEXAI": "true"]
        let list = try await express.run(["cache", "list"])
        #expect(list.status == 1)
        #expect(
            list.stderr
                == "error: cache list: Vertex AI express mode (an API key, no project) has no context caches; "
                + "set GOOGLE_CLOUD_PROJECT (or 'set backend developer')\n")
        let json = try await express.run(["--json", "-c", "set backend vertex\ncache create c hello"])
        #expect(json.status == 1)
        let line = try JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(line["error"]?["kind"] == .string("notOnVertex"))
        #expect(try await express.server.requests().isEmpty)
    }

    @Test func compareAsksEachModelOnTheProjectPath() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let outcome = try await shell.run(["compare", "--models", "gemini-3.8-flash,gemini-2.5-flash", "hi"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try await Self.calls(shell).sorted() == [
                Self.project + "gemini-2.5-flash:generateContent",
                Self.project + "gemini-3.8-flash:generateContent",
            ])
    }

    @Test func priorityIsAskedInVertexsHeadersAndTheServedTierIsNamed() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let outcome = try await shell.run(["--json", "--verbose", "-c", "set service-tier priority\nask hi"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let call = try await shell.server.requests().last
        #expect(call?.headers["x-vertex-ai-llm-request-type"] == "shared")
        #expect(call?.headers["x-vertex-ai-llm-shared-request-type"] == "priority")
        let reply = try JSONValue(parsing: outcome.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(reply["serviceTier"] == .string("priority"))
        #expect(outcome.stderr.contains("served by the priority tier\n"))
    }
}
