import SophonCore

extension GeminiClientConfiguration {
    /// A key provider reading `account` from `keychain` on each call: environment variables
    /// first (`GOOGLE_API_KEY`, then `GEMINI_API_KEY` for the `gemini` account), then the
    /// platform store. A store that cannot be read gives no key (the call then fails with
    /// ``GeminiError/missingAPIKey``).
    public static func keychainKeyProvider(
        account: String, keychain: SophonKeychain = SophonKeychain()
    ) -> @Sendable () -> String? {
        { (try? keychain.load(account: account))?.secret }
    }
}

extension GeminiAPIClient {
    /// Saves `key` for ``GeminiClientConfiguration/keychainAccount`` in `keychain`'s store.
    /// - Returns: where the key now comes from: an environment variable still wins over the
    ///   saved key, and the source says so.
    /// - Throws: what the store throws (`SecretStoreError` for Sophon's stores).
    @discardableResult
    public func saveAPIKey(_ key: String, keychain: SophonKeychain = SophonKeychain()) throws -> SecretSource
    {
        try keychain.save(key, account: configuration.keychainAccount)
    }

    /// Deletes the saved key of ``GeminiClientConfiguration/keychainAccount``.
    /// - Returns: whether a key was deleted.
    /// - Throws: what the store throws.
    @discardableResult
    public func deleteAPIKey(keychain: SophonKeychain = SophonKeychain()) throws -> Bool {
        try keychain.delete(account: configuration.keychainAccount)
    }
}
