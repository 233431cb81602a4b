import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// What PRODUCT.md §16 says of Vertex AI, checked against the real binary and
/// scripts/fake_gemini.py: `models --live` lists the publisher's models, a refused key or
/// token is said for the deployment in use, and a malformed location is refused before
/// anything is sent.
@Suite(.childSlots) struct VertexDeploymentTests {
    @Test func modelsLiveListsThePublishersModelsWithTheToken() async throws {
        let (shell, _) = try await VertexShellTests.shell()
        let outcome = try await shell.run(["models", "--live"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let served = [
            "gemini-2.5-flash-lite  in ? / out ?  (gemini25FlashLite)",
            "gemini-2.5-flash  in ? / out ?  (gemini25Flash)",
            "gemini-2.5-pro  in ? / out ?  (gemini25Pro)",
            "gemini-3.1-flash-lite  in ? / out ?  (gemini31FlashLite)",
            "gemini-3.5-flash-lite  in ? / out ?  (gemini35FlashLite)",
            "gemini-3.5-flash  in ? / out ?  (gemini35Flash)",
            "gemini-3.6-flash  in ? / out ?  (gemini36Flash)",
            "gemini-3.8-flash  in ? / out ?  (gemini38Flash)",
            "text-embedding-004  in ? / out ?", "not served:", "  gemini-3-flash-preview  (gemini3Flash)",
            "  gemini-3.1-pro-preview  (gemini31Pro)",
        ]
        #expect(outcome.stdout == served.joined(separator: "\n") + "\n")
        let seen = try await shell.server.requests()
        #expect(seen.map(\.path) == ["/token", "/v1beta1/publishers/google/models?pageSize=1000"])
        #expect(seen[1].headers["authorization"]?.hasPrefix("Bearer ya29.fake-") == true)
        #expect(seen[1].headers["x-goog-api-key"] == nil)
        let json = try await shell.run(["--json", "models", "--live"])
        let result = try JSONValue(parsing: json.stdout)["result"]
        #expect(
            result?["models"]?[0]
                == .object([
                    JSONMember("id", .string("gemini-2.5-flash-lite")), JSONMember("displayName", .null),
                    JSONMember("inputTokenLimit", .null), JSONMember("outputTokenLimit", .null),
                ]))
        #expect(
            result?["notServed"]
                == .array([.string("gemini-3-flash-preview"), .string("gemini-3.1-pro-preview")]))
    }

    @Test func modelsLiveInExpressModeSaysWhyNotBeforeSending() async throws {
        let shell = try await GeminiShell()
        shell.extraEnvironment = ["GOOGLE_GENAI_USE_VERTEXAI": "true"]
        let outcome = try await shell.run(["--json", "models", "--live"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == #"{"command":"models --live","ok":false,"error":{"kind":"notOnVertex","message":"models --live: Vertex AI express mode (an API key, no project) cannot list models; set GOOGLE_CLOUD_PROJECT (or 'set backend developer')"}}"#
                + "\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aTokenVertexKeepsRefusingIsACredentialsErrorNamingTheFileNotAnAPIKey() async throws {
        let (shell, path) = try await VertexShellTests.shell()
        let refused =
            #"{"kind": "json", "status": 401, "body": {"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}}"#
        try await shell.server.script([refused, refused])
        let outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: Vertex AI refused the credentials in \(path) (HTTP 401 UNAUTHENTICATED): Request had invalid authentication credentials.\n"
        )
        // One refresh after the first 401, then the second 401 ends the call.
        #expect(try await shell.server.paths().filter { $0 == "/token" }.count == 2)
        let denied =
            #"{"kind": "json", "status": 403, "body": {"error": {"code": 403, "message": "Permission 'aiplatform.endpoints.predict' denied", "status": "PERMISSION_DENIED"}}}"#
        try await shell.server.script([denied])
        let json = try await shell.run(["--json", "ask", "hi"])
        #expect(
            json.stdout
                == #"{"command":"ask hi","ok":false,"error":{"kind":"credentialsError","message":"Vertex AI refused the credentials in \#(path) (HTTP 403 PERMISSION_DENIED): Permission 'aiplatform.endpoints.predict' denied"}}"#
                + "\n")
    }

    @Test func aWrongKeyInExpressModeIsRejectedByVertexAINotTheGeminiAPI() async throws {
        let shell = try await GeminiShell()
        shell.extraEnvironment = ["GOOGLE_GENAI_USE_VERTEXAI": "true", "GEMINI_API_KEY": "wrong-key"]
        let outcome = try await shell.run(["--json", "ask", "hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout
                == #"{"command":"ask hi","ok":false,"error":{"kind":"invalidAPIKey","message":"Vertex AI rejected the API key: HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key."}}"#
                + "\n")
        #expect(
            try await shell.server.paths() == [
                "/v1beta1/publishers/google/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
            ])
    }

    @Test func aMalformedLocationIsRefusedBeforeAnythingIsSent() async throws {
        for location in ["us central1", "US-CENTRAL1", "us-central1/x", "-us"] {
            let (shell, _) = try await VertexShellTests.shell(location: location)
            let outcome = try await shell.run(["--json", "ask", "hi"])
            #expect(outcome.status == 1)
            #expect(
                outcome.stdout
                    == #"{"command":"ask hi","ok":false,"error":{"kind":"credentialsError","message":"GOOGLE_CLOUD_LOCATION '\#(location)' is not a Vertex AI location: use global, us, eu or a region such as us-central1"}}"#
                    + "\n")
            #expect(try await shell.server.requests().isEmpty)
        }
    }
}
