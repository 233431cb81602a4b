import Foundation
import SophonCore
import Testing

@testable import SophonGemini

/// Key helpers through SophonCore's keychain (a file store under a temporary SOPHON_HOME).
@Suite struct KeyHelperTests {
    @Test func saveLoadMaskAndDelete() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let keychain = SophonKeychain(environment: ["SOPHON_HOME": home.path])
        let configuration = GeminiClientConfiguration(
            keychainAccount: "test-account",
            apiKeyProvider: GeminiClientConfiguration.keychainKeyProvider(
                account: "test-account", keychain: keychain))
        let client = GeminiAPIClient(configuration: configuration, transport: ScriptedTransport([]))
        #expect(!client.hasAPIKey)
        #expect(client.maskedAPIKey == nil)
        try client.saveAPIKey("AIzaSyEXAMPLE-key-0123456789abcdefcD3f", keychain: keychain)
        #expect(client.hasAPIKey)
        #expect(client.maskedAPIKey == "••••cD3f")
        #expect(try client.deleteAPIKey(keychain: keychain))
        #expect(!client.hasAPIKey)
        #expect(try !client.deleteAPIKey(keychain: keychain))
    }

    @Test func environmentKeyWins() {
        let keychain = SophonKeychain(environment: [
            "GEMINI_API_KEY": "env-key-abcdefgh1234", "SOPHON_HOME": "/nonexistent",
        ])
        let provider = GeminiClientConfiguration.keychainKeyProvider(account: "gemini", keychain: keychain)
        #expect(provider() == "env-key-abcdefgh1234")
    }
}
