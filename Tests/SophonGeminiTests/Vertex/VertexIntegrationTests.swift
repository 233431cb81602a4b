import Foundation
import SophonCore
import SophonTestSupport
import Synchronization
import Testing

@testable import SophonGemini

/// Vertex AI in the library over real HTTP against scripts/fake_gemini.py (docs/vertex.md):
/// endpoints, the JWT bearer grant signed with the system OpenSSL and checked by the server
/// with the public key, token caching, refresh on a 401, and the token endpoint's failures.
@Suite(.childSlots) struct VertexIntegrationTests {
    static let keys = Task { try await VertexTestKeys() }

    /// A wall clock the test moves.
    final class Clock: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 1_796_083_200))
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
        var now: @Sendable () -> Date { { self.time.withLock { $0 } } }
    }

    static func tokens(_ server: FakeGeminiServer, clock: Clock = Clock()) async throws -> GoogleAccessTokens
    {
        let keys = try await Self.keys.value
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sa-\(UUID().uuidString).json")
        try Data(keys.serviceAccountJSON(tokenURI: server.baseURLText + "/token").utf8).write(to: file)
        try await server.acceptVertex(keys, audience: server.baseURLText + "/token")
        let credentials = try GoogleCredentials.load(path: file.path)
        return GoogleAccessTokens(credentials: credentials, now: clock.now)
    }

    static func client(
        _ server: FakeGeminiServer, tokens: GoogleAccessTokens?, project: String? = "proj-1",
        location: String = "europe-west4", recorder: SleepRecorder = SleepRecorder()
    ) -> GeminiAPIClient {
        var configuration = GeminiClientConfiguration.testing(recorder: recorder, baseURL: server.baseURL)
        configuration.backend = .vertex(project: project, location: location)
        configuration.accessTokens = tokens
        return GeminiAPIClient(configuration: configuration)
    }

    @Test func aCallGoesToTheRegionalPathWithABearerTokenFromASignedJWT() async throws {
        let server = try await FakeGeminiServer()
        let tokens = try await Self.tokens(server)
        let result = try await Self.client(server, tokens: tokens).generateText(
            label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
        #expect(result.value == "Hello from the fake Gemini server.")
        let seen = try await server.requests()
        #expect(
            seen.map(\.path) == [
                "/token",
                "/v1beta1/projects/proj-1/locations/europe-west4/publishers/google/models/gemini-3.8-flash:generateContent",
            ])
        // The assertion: RS256 with the key's ID; iss, scope, aud, iat and exp one hour apart.
        let assertion = seen[0].bodyText.components(separatedBy: "assertion=").last ?? ""
        let segments = assertion.split(separator: ".").map(String.init)
        #expect(segments.count == 3)
        func decoded(_ text: String) throws -> JSONValue {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
                of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try JSONValue(
                parsing: String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self))
        }
        #expect(try decoded(segments[0]).compactText == #"{"alg":"RS256","typ":"JWT","kid":"kid-1"}"#)
        #expect(
            try decoded(segments[1]).compactText
                == #"{"iss":"sa@proj-1.iam.gserviceaccount.com","scope":"https://www.googleapis.com/auth/cloud-platform","aud":"\#(server.baseURLText)/token","iat":1796083200,"exp":1796086800}"#
        )
        #expect(seen[0].headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(seen[0].headers["x-goog-api-key"] == nil)
        #expect(seen[1].headers["authorization"]?.hasPrefix("Bearer ya29.fake-") == true)
    }

    /// The measure of issue 31: one call a minute for three hours of the clock costs at most
    /// one token round trip per hour (a token lives an hour and is refreshed 5 minutes before).
    @Test func tokenRefreshAddsAtMostOneRoundTripPerHourOfCalls() async throws {
        let server = try await FakeGeminiServer()
        let clock = Clock()
        let client = await Self.client(server, tokens: try Self.tokens(server, clock: clock))
        for _ in 0..<180 {
            _ = try await client.generateText(
                label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
            clock.advance(60)
        }
        let grants = try await server.tokenGrants().count
        #expect(grants == 4)  // at minutes 0, 55, 110 and 165
        #expect(try await server.paths().count == 180 + grants)
    }

    @Test func aRefusedTokenIsRefreshedOnceWithoutLosingTheRequest() async throws {
        let server = try await FakeGeminiServer()
        let client = await Self.client(server, tokens: try Self.tokens(server))
        _ = try await client.generateText(
            label: "t", contents: [Content(role: "user", parts: [.text("one")])])
        _ = try await server.control("POST", "/_sophon/vertex", body: #"{"revokeTokens": true}"#)
        let result = try await client.generateText(
            label: "t", contents: [Content(role: "user", parts: [.text("two")])])
        #expect(result.retryCount == 0)
        #expect(try await server.tokenGrants().count == 2)
        #expect(
            try await server.paths().map { $0 == "/token" ? "token" : "call" } == [
                "token", "call", "call", "token", "call",
            ])
        // A token refused again is the caller's error, not an endless loop.
        _ = try await server.control("POST", "/_sophon/vertex", body: #"{"lifetime": -10}"#)
        _ = try await server.control("POST", "/_sophon/vertex", body: #"{"revokeTokens": true}"#)
        await #expect(throws: GeminiError.self) {
            try await client.generateText(
                label: "t", contents: [Content(role: "user", parts: [.text("three")])])
        }
    }

    @Test func aFailingTokenEndpointIsRetriedThroughTheRetryPolicy() async throws {
        let server = try await FakeGeminiServer()
        let tokens = try await Self.tokens(server)
        _ = try await server.control("POST", "/_sophon/vertex", body: #"{"tokenFaults": 2}"#)
        let recorder = SleepRecorder()
        let result = try await Self.client(server, tokens: tokens, recorder: recorder).generateText(
            label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
        #expect(result.value == "Hello from the fake Gemini server.")
        #expect(try await server.tokenGrants().count == 3)
        #expect(recorder.recorded.count == 2)
    }

    @Test func expressModeSendsTheKeyToThePublisherPath() async throws {
        let server = try await FakeGeminiServer()
        _ = try await Self.client(server, tokens: nil, project: nil).generateText(
            label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
        let seen = try await server.requests()
        #expect(seen.map(\.path) == ["/v1beta1/publishers/google/models/gemini-3.8-flash:generateContent"])
        #expect(seen.first?.headers["x-goog-api-key"] == "test-key")
    }

    @Test func theFilesAPIIsRefusedBeforeSending() async throws {
        let server = try await FakeGeminiServer()
        let client = Self.client(server, tokens: nil, project: nil)
        await #expect(throws: GeminiError.self) { _ = try await client.listFiles() }
        #expect(try await server.requests().isEmpty)
    }

    @Test func endpointsPerLocation() throws {
        let endpoint = GeminiEndpoint.generateContent(model: "gemini-2.5-flash")
        func url(_ backend: GeminiBackend) throws -> String {
            try endpoint.url(base: backend.defaultBaseURL, backend: backend).absoluteString
        }
        #expect(
            try url(.vertex(project: "p", location: "global"))
                == "https://aiplatform.googleapis.com/v1beta1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:generateContent"
        )
        #expect(
            try url(.vertex(project: "p", location: "us-central1"))
                == "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent"
        )
        #expect(
            try url(.vertex(project: "p", location: "eu"))
                == "https://aiplatform.eu.rep.googleapis.com/v1beta1/projects/p/locations/eu/publishers/google/models/gemini-2.5-flash:generateContent"
        )
        #expect(
            try url(.vertex(project: nil, location: "global"))
                == "https://aiplatform.googleapis.com/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent"
        )
        #expect(
            try GeminiEndpoint.cachedContent("cachedContents/x").url(
                base: URL(string: "http://h:1")!, backend: .vertex(project: "p", location: "l")
            ).absoluteString == "http://h:1/v1beta1/projects/p/locations/l/cachedContents/x")
        #expect(
            try GeminiEndpoint.models(pageSize: 5, pageToken: nil).url(
                base: URL(string: "http://h:1")!, backend: .vertex(project: "p", location: "l")
            ).absoluteString == "http://h:1/v1beta1/publishers/google/models?pageSize=5")
        #expect(
            GeminiBackend.vertex(project: "p", location: "l").modelResource("m")
                == "projects/p/locations/l/publishers/google/models/m")
    }

    /// PRODUCT §16: the token endpoint is the file's `token_uri` when it has one (either type of
    /// file), else Google's.
    @Test func theTokenEndpointIsTheFilesTokenURIElseGoogles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func endpoint(_ text: String) throws -> String {
            let path = folder.appendingPathComponent("c.json").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            return try GoogleCredentials.load(path: path).tokenURL.absoluteString
        }
        let user = #""type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r""#
        #expect(try endpoint("{\(user)}") == "https://oauth2.googleapis.com/token")
        #expect(
            try endpoint(#"{\#(user), "token_uri": "http://127.0.0.1:9/oauth/token"}"#)
                == "http://127.0.0.1:9/oauth/token")
        #expect(throws: GoogleCredentialsError.badField("token_uri", path: folder.path + "/c.json")) {
            _ = try endpoint(#"{\#(user), "token_uri": "ftp://x/token"}"#)
        }
    }

    @Test func credentialsFilesAreReadOrSayWhatIsWrong() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ text: String) -> String {
            let path = folder.appendingPathComponent("c.json").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            do {
                return try GoogleCredentials.load(path: path).description
            } catch {
                return error.description.replacingOccurrences(of: path, with: "PATH")
            }
        }
        #expect(
            load(
                #"{"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r"}"#)
                == "authorized_user credentials (\(folder.path)/c.json)")
        #expect(
            load(#"{"type": "authorized_user", "client_id": "c"}"#)
                == "the credentials file PATH has no 'client_secret'")
        #expect(
            load(#"{"client_id": "c"}"#)
                == "the credentials file PATH has type '(none)'; Sophon reads authorized_user and service_account"
        )
        #expect(load("[1]") == "the credentials file PATH is not a JSON object")
        #expect(
            load(#"{"type": "service_account", "client_email": "e", "private_key": "k"}"#)
                == "the private key in PATH cannot sign: private_key is not a PEM private key")
        let environment = ["HOME": "/nowhere", "CLOUDSDK_CONFIG": folder.path + "/gcloud"]
        #expect(
            GoogleCredentials.location(environment: environment).path == folder.path
                + "/gcloud/application_default_credentials.json")
        #expect(
            throws: GoogleCredentialsError.missing(
                path: folder.path + "/gcloud/application_default_credentials.json",
                source: "gcloud's application default credentials")
        ) { _ = try GoogleCredentials.load(environment: environment) }
    }

    @Test func aSecretNeverReachesAnErrorOrALogLine() async throws {
        let server = try await FakeGeminiServer()
        let tokens = try await Self.tokens(server)
        let lines = Mutex<[String]>([])
        var configuration = GeminiClientConfiguration.testing(
            recorder: SleepRecorder(), baseURL: server.baseURL)
        configuration.backend = .vertex(project: "proj-1", location: "global")
        configuration.accessTokens = tokens
        configuration.logHandler = { _, line in lines.withLock { $0.append(line) } }
        let client = GeminiAPIClient(configuration: configuration)
        _ = try await client.generateText(label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
        try await server.script([
            #"{"kind": "json", "status": 400, "body": {"error": {"code": 400, "message": "echo \#(tokens.secrets.first ?? "")", "status": "INVALID_ARGUMENT"}}}"#
        ])
        var described = ""
        do {
            _ = try await client.generateText(
                label: "t", contents: [Content(role: "user", parts: [.text("hi")])])
        } catch let error as GeminiError {
            described = error.description(language: "en")
        }
        #expect(described.contains("echo "))
        for secret in tokens.secrets where secret.count > 8 {
            #expect(!described.contains(secret))
            #expect(!lines.withLock { $0.joined() }.contains(secret))
        }
    }
}
