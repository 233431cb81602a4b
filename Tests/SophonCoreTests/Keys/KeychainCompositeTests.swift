import Foundation
import Testing

@testable import SophonCore

@Suite struct KeychainCompositeTests {
    static let key = "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqcD3f"

    /// A keychain over a temporary SOPHON_HOME plus `extra` variables.
    func makeKeychain(_ tmp: TemporaryFolder, _ extra: [String: String] = [:], recorder: LogRecorder)
        -> SophonKeychain
    {
        var environment = extra
        environment["SOPHON_HOME"] = tmp.url.path
        return SophonKeychain(environment: environment, logger: recorder.makeLogger())
    }

    @Test func platformStoreUnderSophonHomeIsTheFlatKeysFile() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let keychain = makeKeychain(tmp, recorder: LogRecorder())
        let store = try #require(keychain.store as? FileSecretStore)
        #expect(store.fileURL.path == tmp.file("keys.json").path)
    }

    @Test func saveLoadSourceDeleteRoundTrip() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let keychain = makeKeychain(tmp, recorder: LogRecorder())
        let path = tmp.file("keys.json").path
        #expect(try keychain.load() == nil)
        #expect(try keychain.source() == nil)
        #expect(try keychain.save("  \(Self.key)\n") == .file(path: path))
        #expect(try keychain.load() == SecretLookup(secret: Self.key, source: .file(path: path)))
        #expect(try keychain.source() == .file(path: path))
        #expect(try keychain.secret(for: "gemini")?.secret == Self.key)
        #expect(try keychain.delete() == true)
        #expect(try keychain.load() == nil)
        #expect(try keychain.delete() == false)
    }

    @Test func environmentOverridesTheStoreAndDeleteLeavesIt() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let keychain = makeKeychain(tmp, ["GEMINI_API_KEY": "env-key-0000000000"], recorder: LogRecorder())
        try keychain.save(Self.key)
        #expect(
            try keychain.load()
                == SecretLookup(
                    secret: "env-key-0000000000", source: .environment(variable: "GEMINI_API_KEY")))
        #expect(try keychain.delete() == true)
        #expect(try keychain.source() == .environment(variable: "GEMINI_API_KEY"))
    }

    @Test func environmentAnswersWithoutReadingARefusedStore() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        try makeFile(tmp.file("keys.json"), "{}", mode: 0o644)
        let keychain = makeKeychain(tmp, ["GOOGLE_API_KEY": Self.key], recorder: LogRecorder())
        #expect(try keychain.source() == .environment(variable: "GOOGLE_API_KEY"))
        let other = makeKeychain(tmp, recorder: LogRecorder())
        #expect(
            throws: SecretStoreError.insecurePermissions(path: tmp.file("keys.json").path, permissions: 0o644)
        ) {
            try other.load()
        }
    }

    @Test func otherAccountsUseOnlyTheStore() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let keychain = makeKeychain(tmp, ["GOOGLE_API_KEY": Self.key], recorder: LogRecorder())
        try keychain.save("app-secret-value", account: "com.app.key")
        #expect(try keychain.load(account: "com.app.key")?.secret == "app-secret-value")
        #expect(
            try FileSecretStore(fileURL: tmp.file("keys.json")).readAll() == [
                "com.app.key": "app-secret-value"
            ])
    }

    @Test func blankSecretIsRefused() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let keychain = makeKeychain(tmp, recorder: LogRecorder())
        #expect(throws: SecretStoreError.emptySecret(account: "gemini")) { try keychain.save(" \n") }
        #expect(try tmp.names() == [])
    }

    @Test func loadedAndSavedSecretsAreMaskedInLogs() throws {
        let tmp = try TemporaryFolder()
        defer { tmp.remove() }
        let recorder = LogRecorder()
        let keychain = makeKeychain(tmp, ["GOOGLE_API_KEY": "AIzaSyENVIRONMENT-key-1234"], recorder: recorder)
        _ = try keychain.load()
        try keychain.save(Self.key, account: "other")
        keychain.logger.error("API key not valid: AIzaSyENVIRONMENT-key-1234 / \(Self.key)")
        #expect(
            recorder.entries == [LogEntry(level: .error, message: "API key not valid: ••••1234 / ••••cD3f")])
    }

    @Test func lookupPrintsMasked() {
        let lookup = SecretLookup(secret: Self.key, source: .environment(variable: "GOOGLE_API_KEY"))
        #expect("\(lookup)" == "••••cD3f from environment variable GOOGLE_API_KEY")
        #expect(String(reflecting: lookup) == "••••cD3f from environment variable GOOGLE_API_KEY")
        #expect(SecretSource.file(path: "/k.json").description == "file /k.json")
        #expect(SecretSource.keychain(service: "Sophon").description == "Keychain (service Sophon)")
    }
}
