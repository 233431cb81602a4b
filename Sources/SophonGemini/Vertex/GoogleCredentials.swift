import Foundation
import SophonCore

/// Application Default Credentials (docs/vertex.md): the JSON file named by
/// `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's ADC file
/// (`$CLOUDSDK_CONFIG/application_default_credentials.json`, by default under
/// `~/.config/gcloud/`). Two types are read: `authorized_user` (a refresh token, from
/// `gcloud auth application-default login`) and `service_account` (a private key).
///
/// The refresh token and the private key are secrets: no description of this type, of its
/// errors or of the tokens it leads to ever includes them.
public struct GoogleCredentials: Sendable, CustomStringConvertible {
    /// What the file holds.
    public enum Kind: Sendable {
        /// `authorized_user`: the refresh-token grant to the token endpoint.
        case authorizedUser(clientID: String, clientSecret: String, refreshToken: String)
        /// `service_account`: an RS256-signed JWT bearer grant (RFC 7523) to `token_uri`.
        case serviceAccount(clientEmail: String, privateKey: String, privateKeyID: String?)
    }

    /// The token endpoint when the file names none.
    public static let googleTokenURL = URL(string: "https://oauth2.googleapis.com/token")!
    /// The scope Vertex AI needs.
    public static let cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

    /// The credentials.
    public var kind: Kind
    /// Where they came from (the file's path).
    public var path: String
    /// The token endpoint: the file's `token_uri`, else Google's.
    public var tokenURL: URL
    /// The project the file names (`project_id`, or `quota_project_id`), if any.
    public var projectID: String?
    /// The quota project (`x-goog-user-project`), if the file names one.
    public var quotaProjectID: String?

    /// `service_account credentials of EMAIL (PATH)`: never a secret.
    public var description: String {
        switch kind {
        case .authorizedUser: "authorized_user credentials (\(path))"
        case .serviceAccount(let email, _, _): "service_account credentials of \(email) (\(path))"
        }
    }

    /// The secrets of these credentials (the private key, the refresh token and the client
    /// secret), for masking.
    public var secrets: [String] {
        switch kind {
        case .authorizedUser(_, let secret, let token): [secret, token]
        case .serviceAccount(_, let key, _):
            [key] + key.split(separator: "\n").map(String.init).filter { $0.count > 16 }
        }
    }

    /// Where ADC is looked for in `environment`, and why: the file `GOOGLE_APPLICATION_CREDENTIALS`
    /// names, else gcloud's file.
    public static func location(environment: [String: String]) -> (path: String, source: String) {
        if let named = environment["GOOGLE_APPLICATION_CREDENTIALS"], !named.isEmpty {
            return (named, "GOOGLE_APPLICATION_CREDENTIALS")
        }
        let folder =
            environment["CLOUDSDK_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config/gcloud")
        return (folder + "/application_default_credentials.json", "gcloud's application default credentials")
    }

    /// Whether ADC exists in `environment` (the variable is set, or gcloud's file is there).
    public static func available(environment: [String: String]) -> Bool {
        let (path, source) = location(environment: environment)
        return source == "GOOGLE_APPLICATION_CREDENTIALS" || FileManager.default.fileExists(atPath: path)
    }

    /// Reads ADC as ``location(environment:)`` finds it.
    /// - Throws: ``GoogleCredentialsError`` saying which file and what is wrong.
    public static func load(environment: [String: String]) throws(GoogleCredentialsError) -> GoogleCredentials
    {
        let (path, source) = location(environment: environment)
        return try load(path: path, source: source)
    }

    /// Reads the credentials file at `path` (`source` says how it was found, for errors).
    /// - Throws: ``GoogleCredentialsError``.
    public static func load(path: String, source: String = "the credentials file")
        throws(GoogleCredentialsError)
        -> GoogleCredentials
    {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .missing(path: path, source: source)
        }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path)
        }
        guard case .object? = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)),
            let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
        else { throw .notJSON(path: path) }
        func field(_ name: String) throws(GoogleCredentialsError) -> String {
            guard let text = value[name]?.stringValue, !text.isEmpty else {
                throw .missingField(name, path: path)
            }
            return text
        }
        let type = value["type"]?.stringValue ?? ""
        let quota = value["quota_project_id"]?.stringValue
        // The token endpoint: the file's `token_uri` when it names one, for either type of file
        // (PRODUCT §16), else Google's.
        var tokenURL = googleTokenURL
        if let text = value["token_uri"]?.stringValue, !text.isEmpty {
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme)
            else { throw .badField("token_uri", path: path) }
            tokenURL = url
        }
        switch type {
        case "authorized_user":
            return GoogleCredentials(
                kind: .authorizedUser(
                    clientID: try field("client_id"), clientSecret: try field("client_secret"),
                    refreshToken: try field("refresh_token")),
                path: path, tokenURL: tokenURL, projectID: quota, quotaProjectID: quota)
        case "service_account":
            let key = try field("private_key")
            let email = try field("client_email")
            guard key.contains("PRIVATE KEY-----") else {
                throw .badKey(path: path, reason: "private_key is not a PEM private key")
            }
            return GoogleCredentials(
                kind: .serviceAccount(
                    clientEmail: email, privateKey: key, privateKeyID: value["private_key_id"]?.stringValue),
                path: path, tokenURL: tokenURL, projectID: value["project_id"]?.stringValue ?? quota,
                quotaProjectID: quota)
        case "":
            throw .unknownType("(none)", path: path)
        default:
            throw .unknownType(type, path: path)
        }
    }
}

/// Why credentials cannot be used: which file and what is wrong, never a secret.
public enum GoogleCredentialsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not exist (`source` says who named it).
    case missing(path: String, source: String)
    /// The file exists but cannot be read (a folder, no permission).
    case unreadable(path: String)
    /// The file is not a JSON object.
    case notJSON(path: String)
    /// `type` is neither `authorized_user` nor `service_account`.
    case unknownType(String, path: String)
    /// A field the type needs is missing or empty.
    case missingField(String, path: String)
    /// A field holds a value that cannot be used.
    case badField(String, path: String)
    /// The private key cannot sign (not PEM, not RSA, damaged).
    case badKey(path: String, reason: String)
    /// The token endpoint refused the grant (`error`, `error_description` of its reply).
    case refused(path: String, endpoint: String, status: Int, reason: String)
    /// The token endpoint could not be reached or kept failing after the retries.
    case tokenEndpointFailed(endpoint: String, detail: String)
    /// RS256 signing is not available on this platform.
    case signingUnavailable

    /// One line saying which file and what is wrong (never a secret).
    public var description: String {
        switch self {
        case .missing(let path, let source):
            "no credentials file at \(path) (\(source)); run 'gcloud auth application-default login' or set GOOGLE_APPLICATION_CREDENTIALS"
        case .unreadable(let path): "the credentials file \(path) cannot be read"
        case .notJSON(let path): "the credentials file \(path) is not a JSON object"
        case .unknownType(let type, let path):
            "the credentials file \(path) has type '\(type)'; Sophon reads authorized_user and service_account"
        case .missingField(let field, let path): "the credentials file \(path) has no '\(field)'"
        case .badField(let field, let path): "the credentials file \(path) has an unusable '\(field)'"
        case .badKey(let path, let reason): "the private key in \(path) cannot sign: \(reason)"
        case .refused(let path, let endpoint, let status, let reason):
            "the token endpoint \(endpoint) refused the credentials in \(path) (HTTP \(status)): \(reason)"
        case .tokenEndpointFailed(let endpoint, let detail):
            "the token endpoint \(endpoint) failed after its retries: \(detail)"
        case .signingUnavailable: "RS256 signing (service_account keys) is not available on this platform"
        }
    }
}
