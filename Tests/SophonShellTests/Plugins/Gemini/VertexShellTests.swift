import Foundation
import SophonCore
import SophonTestSupport
import Testing

/// Vertex AI end to end (docs/vertex.md): the real binary with Application Default Credentials
/// against scripts/fake_gemini.py, which serves Vertex's paths and a token endpoint that
/// accepts only a JWT signed by the test's key (checked with the public key).
@Suite(.childSlots) struct VertexShellTests {
    static let keys = Task { try await VertexTestKeys() }

    /// A shell on Vertex AI with a service-account file whose `token_uri` is Google's (the base
    /// URL replaces its host).
    static func shell(location: String? = "us-central1", project: String? = "proj-1") async throws -> (
        GeminiShell, String
    ) {
        let shell = try await GeminiShell()
        let keys = try await Self.keys.value
        let path = try shell.write(
            "sa.json", keys.serviceAccountJSON(tokenURI: "https://oauth2.googleapis.com/token"))
        try await shell.server.acceptVertex(keys, audience: "https://oauth2.googleapis.com/token")
        shell.extraEnvironment = [
            "GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_APPLICATION_CREDENTIALS": path,
        ]
        if let project { shell.extraEnvironment["GOOGLE_CLOUD_PROJECT"] = project }
        if let location { shell.extraEnvironment["GOOGLE_CLOUD_LOCATION"] = location }
        return (shell, path)
    }

    /// No secret of the run in `text`: the private key, an access token, an assertion.
    static func expectNoSecrets(_ text: String, _ shell: GeminiShell) async throws {
        let keys = try await Self.keys.value
        #expect(!text.contains("ya29."))
        #expect(!text.contains("eyJhbGciOi"))
        #expect(!text.contains(keys.privateKey.split(separator: "\n")[1]))
    }

    @Test func aServiceAccountCallsTheProjectPathWithOneTokenForTheRun() async throws {
        let (shell, _) = try await Self.shell()
        let outcome = try await shell.run(["--verbose", "-c", "ask one\nask two"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Hello from the fake Gemini server.\nHello from the fake Gemini server.\n")
        let seen = try await shell.server.requests()
        let path = "/v1beta1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-3.8-flash"
        #expect(
            seen.map(\.path) == [
                "/token", path + ":streamGenerateContent?alt=sse", path + ":streamGenerateContent?alt=sse",
            ])
        #expect(try await shell.server.tokenGrants() == ["urn:ietf:params:oauth:grant-type:jwt-bearer"])
        let bearer = seen[1].headers["authorization"] ?? ""
        #expect(bearer.hasPrefix("Bearer ya29.fake-"))
        #expect(seen[2].headers["authorization"] == bearer)
        #expect(seen[1].headers["x-goog-api-key"] == nil)
        #expect(seen[1].body["contents"]?[0]?["role"] == .string("user"))
        #expect(outcome.stderr.hasPrefix("-> POST /token (attempt 1)\n<- 200 OK in "))
        try await Self.expectNoSecrets(outcome.stdout + outcome.stderr, shell)
    }

    @Test func setBackendVertexUsesTheGlobalLocationByDefault() async throws {
        let (shell, _) = try await Self.shell(location: nil)
        shell.extraEnvironment["GOOGLE_GENAI_USE_VERTEXAI"] = nil
        let outcome = try await shell.run(["-c", "show backend\nset backend vertex\nshow backend\nask hi"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "developer\nvertex\nHello from the fake Gemini server.\n")
        #expect(
            try await shell.server.paths().last
                == "/v1beta1/projects/proj-1/locations/global/publishers/google/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
        )
    }

    @Test func expressModeSendsTheKeyWithoutAProject() async throws {
        let shell = try await GeminiShell()
        shell.extraEnvironment = ["GOOGLE_GENAI_USE_VERTEXAI": "true"]
        let outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.status == 0)
        let seen = try await shell.server.requests()
        #expect(
            seen.map(\.path) == [
                "/v1beta1/publishers/google/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
            ])
        #expect(seen.first?.headers["x-goog-api-key"] == "test-key")
        #expect(seen.first?.headers["authorization"] == nil)
    }

    @Test func anAuthorizedUserFileFromGcloudUsesTheRefreshTokenGrant() async throws {
        let shell = try await GeminiShell()
        try FileManager.default.createDirectory(
            at: shell.home.appendingPathComponent("gcloud"), withIntermediateDirectories: true)
        try shell.write(
            "gcloud/application_default_credentials.json",
            #"{"type": "authorized_user", "client_id": "client-1", "client_secret": "secret-1", "refresh_token": "refresh-1"}"#
        )
        try await shell.server.acceptVertex(nil, audience: "")
        shell.extraEnvironment = [
            "GOOGLE_GENAI_USE_VERTEXAI": "1", "GOOGLE_CLOUD_PROJECT": "proj-2",
            "CLOUDSDK_CONFIG": shell.home.appendingPathComponent("gcloud").path,
        ]
        let outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.status == 0)
        #expect(try await shell.server.tokenGrants() == ["refresh_token"])
        let grant = try await shell.server.requests().first
        #expect(
            grant?.bodyText
                == "grant_type=refresh_token&client_id=client-1&client_secret=secret-1&refresh_token=refresh-1"
        )
        #expect(
            try await shell.server.paths().last?.hasPrefix("/v1beta1/projects/proj-2/locations/global/")
                == true)
        #expect(!outcome.stderr.contains("refresh-1") && !outcome.stdout.contains("refresh-1"))
    }

    @Test func credentialsProblemsSayWhichFileAndWhat() async throws {
        let (shell, path) = try await Self.shell()
        let missing = shell.home.appendingPathComponent("none.json").path
        shell.extraEnvironment["GOOGLE_APPLICATION_CREDENTIALS"] = missing
        var outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: no credentials file at \(missing) (GOOGLE_APPLICATION_CREDENTIALS); run 'gcloud auth application-default login' or set GOOGLE_APPLICATION_CREDENTIALS\n"
        )
        shell.extraEnvironment["GOOGLE_APPLICATION_CREDENTIALS"] = path
        try shell.write("sa.json", #"{"type": "external_account"}"#)
        outcome = try await shell.run(["ask", "hi"])
        #expect(
            outcome.stderr
                == "error: the credentials file \(path) has type 'external_account'; Sophon reads authorized_user and service_account\n"
        )
        try shell.write(
            "sa.json",
            #"{"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n"}"#
        )
        outcome = try await shell.run(["ask", "hi"])
        #expect(
            outcome.stderr
                == "error: the private key in \(path) cannot sign: no PEM private key could be read\n")
        try shell.write("sa.json", "not json")
        outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.stderr == "error: the credentials file \(path) is not a JSON object\n")
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aJWTSignedByAnotherKeyIsRefusedByTheTokenEndpoint() async throws {
        let (shell, path) = try await Self.shell()
        try await shell.server.acceptVertex(
            try await VertexTestKeys(), audience: "https://oauth2.googleapis.com/token")
        let outcome = try await shell.run(["ask", "hi"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: the token endpoint \(shell.server.baseURLText)/token refused the credentials in \(path) (HTTP 400): invalid_grant: Invalid JWT Signature.\n"
        )
        #expect(try await shell.server.paths() == ["/token"])
        try await Self.expectNoSecrets(outcome.stderr, shell)
    }

    @Test func aTokenRevokedMidRunIsRefreshedOnceAndTheRequestIsNotLost() async throws {
        let (shell, _) = try await Self.shell()
        // The server revokes every token after the first call it serves with one.
        _ = try await shell.server.control("POST", "/_sophon/vertex", body: #"{"revokeAfter": 1}"#)
        let outcome = try await shell.run(["-c", "ask one\nask two"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "Hello from the fake Gemini server.\nHello from the fake Gemini server.\n")
        #expect(outcome.stderr == "")
        let seen = try await shell.server.requests()
        #expect(
            seen.map { $0.path == "/token" ? "token" : "call" } == ["token", "call", "call", "token", "call"])
        #expect(seen[2].body == seen[4].body)
        #expect(seen[2].headers["authorization"] != seen[4].headers["authorization"])
    }

    @Test func filesAndBatchSayWhyNotBeforeSending() async throws {
        let (shell, _) = try await Self.shell()
        let files = try await shell.run(["files"])
        #expect(files.status == 1)
        #expect(
            files.stderr
                == "error: files: Vertex AI has no Files API; media goes inline (attach) or by gs:// URI\n")
        try shell.write("in.jsonl", #"{"key": "a", "prompt": "hi"}"# + "\n")
        let batch = try await shell.run(["batch", "submit", "in.jsonl"])
        #expect(batch.status == 1)
        #expect(
            batch.stderr.hasPrefix(
                "error: batch submit: Vertex AI's batch prediction reads its input from Cloud Storage"))
        #expect(try await shell.server.requests().isEmpty)
    }

    @Test func aRecordedTapeHoldsNoTokenNoGrantAndNoKey() async throws {
        let (shell, _) = try await Self.shell()
        let outcome = try await shell.run(["--record", "t.jsonl", "ask", "hi"])
        #expect(outcome.status == 0)
        let tape = shell.read("t.jsonl") ?? ""
        #expect(tape.contains("streamGenerateContent"))
        #expect(!tape.contains("/token"))
        try await Self.expectNoSecrets(tape, shell)
    }

    @Test func aTokenEndpointThatKeepsFailingIsRetriedThenAClearCredentialsError() async throws {
        let (shell, _) = try await Self.shell()
        _ = try await shell.server.control("POST", "/_sophon/vertex", body: #"{"tokenFaults": 5}"#)
        let outcome = try await shell.run([
            "--json", "-c", "retry-policy base=10ms cap=20ms jitter=0\nask hi",
        ])
        #expect(outcome.status == 1)
        #expect(try await shell.server.paths() == ["/token", "/token", "/token"])
        let line = try JSONValue(parsing: outcome.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(line["error"]?["kind"] == .string("credentialsError"))
        #expect(
            line["error"]?["message"]?.stringValue?.hasPrefix(
                "the token endpoint \(shell.server.baseURLText)/token failed after its retries: ") == true)
    }
}
