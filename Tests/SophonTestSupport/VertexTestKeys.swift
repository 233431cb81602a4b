import Foundation

/// RSA key pairs and credentials files for Vertex AI tests, made with the `openssl` command
/// line (the fake server checks JWT signatures with the public half). Test support only.
public struct VertexTestKeys: Sendable {
    /// Why a key could not be made.
    public struct Failure: Error {
        /// What failed.
        public var message: String
    }

    /// The private key, PEM (PKCS #8).
    public var privateKey: String
    /// The public key, PEM (SubjectPublicKeyInfo).
    public var publicKey: String

    /// A new 2048-bit key pair from `openssl genpkey` (run off the cooperative pool).
    public init() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vertex-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("key.pem").path
        let pub = folder.appendingPathComponent("pub.pem").path
        try await Self.openssl([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key,
        ])
        try await Self.openssl(["pkey", "-in", key, "-pubout", "-out", pub])
        privateKey = try String(contentsOfFile: key, encoding: .utf8)
        publicKey = try String(contentsOfFile: pub, encoding: .utf8)
    }

    private static func openssl(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        await OffPool.run { process.waitUntilExit() }
        guard process.terminationStatus == 0 else {
            throw Failure(message: "openssl \(arguments.first ?? "") failed")
        }
    }

    /// A `service_account` credentials file's JSON text with this key.
    public func serviceAccountJSON(tokenURI: String?, project: String = "proj-1") -> String {
        var members = [
            #""type": "service_account""#, #""project_id": "\#(project)""#, #""private_key_id": "kid-1""#,
            #""private_key": \#(Self.quoted(privateKey))"#,
            #""client_email": "sa@\#(project).iam.gserviceaccount.com""#,
            #""client_id": "1234""#,
        ]
        if let tokenURI { members.append(#""token_uri": "\#(tokenURI)""#) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\""
        )
        .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}

extension FakeGeminiServer {
    /// Makes the token endpoint accept assertions signed by `keys` for `audience`, and the
    /// refresh-token grant of the given client.
    public func acceptVertex(
        _ keys: VertexTestKeys?, audience: String, lifetime: Int = 3600, clientID: String = "client-1",
        clientSecret: String = "secret-1", refreshToken: String = "refresh-1"
    ) async throws {
        let key = keys.map { VertexTestKeys.quoted($0.publicKey) } ?? "null"
        _ = try await control(
            "POST", "/_sophon/vertex",
            body:
                #"{"publicKey": \#(key), "audience": "\#(audience)", "lifetime": \#(lifetime), "clientId": "\#(clientID)", "clientSecret": "\#(clientSecret)", "refreshToken": "\#(refreshToken)"}"#
        )
    }

    /// The grant types the token endpoint was sent, in order.
    public func tokenGrants() async throws -> [String] {
        let data = try await control("GET", "/_sophon/vertex", body: nil)
        let value = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return value?["grants"] as? [String] ?? []
    }
}
