import Foundation
import SophonCore
import Synchronization

/// OAuth2 access tokens for Vertex AI from ``GoogleCredentials`` (docs/vertex.md): a
/// refresh-token grant (`authorized_user`) or an RS256 JWT bearer grant (`service_account`),
/// posted to the token endpoint through the client's one call path
/// (its retries and deadline; no key or token is sent with it).
///
/// A token lives in memory only, never in a file, and is used until 5 minutes before it
/// expires; calls in flight at once share one refresh. Tokens, the refresh token and the
/// private key never appear in a description, a log line or an error.
public final class GoogleAccessTokens: Sendable {
    /// The credentials tokens are made from.
    public let credentials: GoogleCredentials
    /// Where the grant is posted: the credentials' token endpoint, or it rebased on a test
    /// server's host (``init(credentials:tokenURL:now:)``).
    public let tokenURL: URL
    /// The wall clock (token expiry, the JWT's `iat`); injectable for tests.
    let now: @Sendable () -> Date
    private let state = Mutex<State>(State())

    private struct State: Sendable {
        var token: String?
        var expiry = Date.distantPast
        var refreshing: Task<(String, Date), any Error>?
        var secrets: [String] = []
    }

    /// A token is refreshed this long before it expires.
    public static let refreshMargin: TimeInterval = 300

    /// Creates a token source.
    /// - Parameters:
    ///   - credentials: what the tokens are made from.
    ///   - tokenURL: where grants go; `nil` for the credentials' endpoint.
    ///   - now: the wall clock.
    public init(
        credentials: GoogleCredentials, tokenURL: URL? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.credentials = credentials
        self.tokenURL = tokenURL ?? credentials.tokenURL
        self.now = now
    }

    /// Every secret seen so far (tokens issued, the credentials' secrets), for masking.
    public var secrets: [String] { state.withLock { $0.secrets } + credentials.secrets }

    /// Forgets the token in memory (after the API refused it: 401), unless it is no longer
    /// `token`.
    func invalidate(_ token: String) {
        state.withLock { if $0.token == token { $0.token = nil } }
    }

    /// A usable token: the one in memory until 5 minutes before its expiry, else a new one.
    /// - Throws: ``GoogleCredentialsError`` (a bad key, a refused grant), ``GeminiError`` (the
    ///   token endpoint failed after retries), `CancellationError`.
    func token(using client: GeminiAPIClient) async throws -> String {
        enum Source {
            case held(String)
            case refresh(Task<(String, Date), any Error>)
        }
        let source: Source = state.withLock { state in
            if let token = state.token, state.expiry.timeIntervalSince(now()) > Self.refreshMargin {
                return .held(token)
            }
            if let running = state.refreshing { return .refresh(running) }
            let running = Task { try await self.grant(using: client) }
            state.refreshing = running
            return .refresh(running)
        }
        guard case .refresh(let task) = source else {
            if case .held(let token) = source { return token }
            throw CancellationError()
        }
        do {
            let (token, expiry) = try await task.value
            state.withLock { state in
                state.refreshing = nil
                state.token = token
                state.expiry = expiry
            }
            return token
        } catch {
            state.withLock { $0.refreshing = nil }
            throw error
        }
    }

    /// Posts the grant and reads `{"access_token", "expires_in"}`.
    private func grant(using client: GeminiAPIClient) async throws -> (String, Date) {
        let issued = now()
        let form = try grantForm(issued: issued)
        let path = credentials.path
        let endpoint = tokenURL.absoluteString
        var call = GeminiAPICall<TokenReply>(
            label: "token", method: "POST", namesModel: false, model: nil,
            endpoint: { _ in GeminiEndpoint(path: "") },
            body: { _ in Data(form.utf8) }
        ) { http, _ in
            let data = try await GeminiAPIClient.collectBody(of: http)
            guard http.status == 200 else {
                if [400, 401, 403].contains(http.status) {
                    let reply = try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
                    let reason = [reply?["error"]?.stringValue, reply?["error_description"]?.stringValue]
                        .compactMap { $0 }.joined(separator: ": ")
                    throw GoogleCredentialsError.refused(
                        path: path, endpoint: endpoint, status: http.status,
                        reason: reason.isEmpty ? "no reason given" : String(reason.prefix(300)))
                }
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data, modelID: nil)
            }
            guard let reply = TokenReply(data) else {
                throw AttemptError(
                    .transport(.badResponse, detail: "the token endpoint's reply has no access_token"))
            }
            return reply
        }
        call.absoluteURL = tokenURL
        call.sendsCredentials = false
        call.headers = ["content-type": "application/x-www-form-urlencoded"]
        let reply: TokenReply
        do {
            reply = try await client.perform(call, retryPolicy: nil).value
        } catch let error as GeminiError {
            throw GoogleCredentialsError.tokenEndpointFailed(
                endpoint: endpoint, detail: error.description(language: "en"))
        }
        state.withLock { if !$0.secrets.contains(reply.token) { $0.secrets.append(reply.token) } }
        return (reply.token, issued.addingTimeInterval(reply.expiresIn))
    }

    /// The form body of the grant.
    private func grantForm(issued: Date) throws -> String {
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
                ?? text
        }
        switch credentials.kind {
        case .authorizedUser(let clientID, let secret, let refreshToken):
            return "grant_type=refresh_token&client_id=\(encoded(clientID))&client_secret=\(encoded(secret))"
                + "&refresh_token=\(encoded(refreshToken))"
        case .serviceAccount(let email, let key, let keyID):
            let jwt = try Self.assertion(
                email: email, key: key, keyID: keyID, audience: credentials.tokenURL.absoluteString,
                issued: issued, path: credentials.path)
            return "grant_type=\(encoded("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(jwt)"
        }
    }

    /// The signed JWT of a service account: header `{"alg":"RS256","typ":"JWT","kid":ID}`,
    /// claims `iss`, `scope` (cloud-platform), `aud` (the token endpoint), `iat`, `exp`
    /// (`iat` + 1 h), each segment unpadded base64url.
    static func assertion(
        email: String, key: String, keyID: String?, audience: String, issued: Date, path: String
    ) throws(GoogleCredentialsError) -> String {
        var header = [JSONMember("alg", .string("RS256")), JSONMember("typ", .string("JWT"))]
        if let keyID { header.append(JSONMember("kid", .string(keyID))) }
        let iat = Int(issued.timeIntervalSince1970)
        let claims: [JSONMember] = [
            JSONMember("iss", .string(email)),
            JSONMember("scope", .string(GoogleCredentials.cloudPlatformScope)),
            JSONMember("aud", .string(audience)), JSONMember("iat", .integer(iat)),
            JSONMember("exp", .integer(iat + 3600)),
        ]
        let input =
            RS256Signer.base64URL(Data(JSONValue.object(header).compactText.utf8)) + "."
            + RS256Signer.base64URL(Data(JSONValue.object(claims).compactText.utf8))
        let signature = try RS256Signer.sign(Data(input.utf8), pem: key, path: path)
        return input + "." + RS256Signer.base64URL(signature)
    }

    /// `{"access_token": T, "expires_in": N}` (`expires_in` a number or a string; 3600 when absent).
    struct TokenReply: Sendable {
        var token: String
        var expiresIn: TimeInterval

        init?(_ data: Data) {
            guard let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
                let token = value["access_token"]?.stringValue, !token.isEmpty
            else { return nil }
            self.token = token
            let expires = value["expires_in"]
            expiresIn = expires?.doubleValue ?? expires?.stringValue.flatMap(Double.init) ?? 3600
        }
    }
}
