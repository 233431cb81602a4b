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
    /// The API key from the provider, trimmed.
    /// - Throws: ``GeminiError/missingAPIKey`` when there is none.
    func requireAPIKey() throws -> String {
        let key = Self.trimmed(configuration.apiKeyProvider() ?? "")
        guard !key.isEmpty else { throw GeminiError.missingAPIKey }
        return key
    }

    /// `text` without leading and trailing whitespace and newlines (Unicode White_Space, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`), without bridging to `NSString`:
    /// that took 2.7% of a call's CPU in the benchmark (perf, docs/benchmarks.md).
    static func trimmed(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }

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
