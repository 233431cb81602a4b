import Foundation

/// The key storage apps use: environment variables first, then the platform store.
///
/// - Reading (``load(account:)``, ``source(account:)``): ``EnvironmentSecretStore`` wins
///   (`GOOGLE_API_KEY`, then `GEMINI_API_KEY` for `gemini`), then the store.
/// - Writing (``save(_:account:)``, ``delete(account:)``) goes to the store only: the
///   environment cannot be changed from here, and a variable that is set keeps overriding a
///   saved key (check ``load(account:)``'s source after saving to tell the user).
/// - The platform store (``platformStore(paths:)``) is the Apple Keychain where `Security`
///   exists, else ``FileSecretStore`` on ``SophonPaths/keysFile``; with `SOPHON_HOME` set it
///   is always the file store, so tests never touch a real Keychain.
/// - Every secret loaded or saved is registered with the logger, so it is masked in any later
///   log message.
public struct SophonKeychain: SecretReading {
    /// The account of the `sophon` shell's Gemini API key.
    public static let geminiAccount = "gemini"

    /// The environment source, consulted first.
    public let environment: EnvironmentSecretStore
    /// The store that ``save(_:account:)`` and ``delete(account:)`` change.
    public let store: any SecretWriting
    /// The logger secrets are registered with.
    public let logger: SophonLogger

    /// Creates a keychain from its parts.
    ///
    /// - Parameters:
    ///   - environment: The environment source.
    ///   - store: The writable store.
    ///   - logger: The logger to register secrets with.
    public init(environment: EnvironmentSecretStore, store: any SecretWriting, logger: SophonLogger = .shared)
    {
        self.environment = environment
        self.store = store
        self.logger = logger
    }

    /// Creates the platform keychain for an environment: its variables, its ``SophonPaths``.
    ///
    /// - Parameters:
    ///   - environment: The process environment (default: this process's).
    ///   - logger: The logger for warnings and secret registration.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, logger: SophonLogger = .shared
    ) {
        self.init(
            environment: EnvironmentSecretStore(environment: environment, logger: logger),
            store: Self.platformStore(paths: SophonPaths(environment: environment)),
            logger: logger)
    }

    /// The platform's writable store: the Keychain (service `Sophon`) on Apple systems unless
    /// `SOPHON_HOME` is set, else a ``FileSecretStore`` on `paths.keysFile`.
    ///
    /// - Parameter paths: Sophon's resolved folders.
    /// - Returns: The store.
    public static func platformStore(paths: SophonPaths) -> any SecretWriting {
        #if canImport(Security)
            if !paths.isFlat { return KeychainSecretStore() }
        #endif
        return FileSecretStore(paths: paths)
    }

    /// Looks up the secret of `account`: the environment first, then the store.
    ///
    /// - Parameter account: The account name (default `gemini`).
    /// - Returns: The secret and its source, or `nil` when neither has one.
    /// - Throws: What the store throws (``SecretStoreError`` for Sophon's stores), e.g. a
    ///   `keys.json` readable by others. A set environment variable answers without reading
    ///   the store.
    public func load(account: String = SophonKeychain.geminiAccount) throws -> SecretLookup? {
        let found = try environment.secret(for: account) ?? store.secret(for: account)
        if let found { logger.register(secret: found.secret) }
        return found
    }

    /// Where the secret of `account` would come from, without returning it.
    ///
    /// - Parameter account: The account name (default `gemini`).
    /// - Returns: The source, or `nil` when no key is set.
    /// - Throws: As ``load(account:)``.
    public func source(account: String = SophonKeychain.geminiAccount) throws -> SecretSource? {
        try load(account: account)?.source
    }

    /// Same as ``load(account:)``, for use as a ``SecretReading``.
    ///
    /// - Parameter account: The account name.
    /// - Returns: The secret and its source, or `nil`.
    /// - Throws: As ``load(account:)``.
    public func secret(for account: String) throws -> SecretLookup? {
        try load(account: account)
    }

    /// Saves a secret in the store. Surrounding whitespace and newlines (a pasted key) are
    /// trimmed.
    ///
    /// - Parameters:
    ///   - secret: The secret.
    ///   - account: The account name (default `gemini`).
    /// - Returns: Where it was stored.
    /// - Throws: ``SecretStoreError/emptySecret(account:)`` when only whitespace is given, and
    ///   what the store throws.
    @discardableResult
    public func save(_ secret: String, account: String = SophonKeychain.geminiAccount) throws -> SecretSource
    {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SecretStoreError.emptySecret(account: account) }
        logger.register(secret: trimmed)
        return try store.save(trimmed, for: account)
    }

    /// Deletes the secret of `account` from the store (environment variables stay).
    ///
    /// - Parameter account: The account name (default `gemini`).
    /// - Returns: `true` when the store had a secret for it.
    /// - Throws: What the store throws.
    @discardableResult
    public func delete(account: String = SophonKeychain.geminiAccount) throws -> Bool {
        try store.deleteSecret(for: account)
    }
}

#if canImport(Security)
    import Foundation
    import Security

    /// The Apple Keychain as a secret store: generic password items of one service, one item
    /// per account, readable when the device is unlocked. The platform store on Apple systems.
    ///
    /// This file is compiled only where `Security` exists (not on Linux); it stays small and
    /// plain on purpose.
    public struct KeychainSecretStore: SecretWriting {
        /// The `kSecAttrService` of the items, e.g. `Sophon`.
        public let service: String

        /// Creates a store for one service.
        ///
        /// - Parameter service: The `kSecAttrService` value.
        public init(service: String = "Sophon") {
            self.service = service
        }

        /// Reads the item of `account`.
        ///
        /// - Parameter account: The `kSecAttrAccount` value.
        /// - Returns: The secret, or `nil` when there is no item (or it is empty or not UTF-8).
        /// - Throws: ``SecretStoreError/keychain(operation:status:)`` for any other status.
        public func secret(for account: String) throws(SecretStoreError) -> SecretLookup? {
            var query = baseQuery(account)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else { throw .keychain(operation: "read", status: status) }
            guard let data = item as? Data, let secret = String(data: data, encoding: .utf8), !secret.isEmpty
            else { return nil }
            return SecretLookup(secret: secret, source: .keychain(service: service))
        }

        /// Updates the item of `account`, or adds it.
        ///
        /// - Parameters:
        ///   - secret: The secret, not empty.
        ///   - account: The account, not empty.
        /// - Returns: ``SecretSource/keychain(service:)``.
        /// - Throws: ``SecretStoreError`` `emptyAccount`, `emptySecret`, or `keychain`.
        @discardableResult
        public func save(_ secret: String, for account: String) throws(SecretStoreError) -> SecretSource {
            guard !account.isEmpty else { throw .emptyAccount }
            guard !secret.isEmpty else { throw .emptySecret(account: account) }
            let data = Data(secret.utf8)
            let update = [kSecValueData as String: data] as CFDictionary
            let status = SecItemUpdate(baseQuery(account) as CFDictionary, update)
            if status == errSecItemNotFound {
                var item = baseQuery(account)
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
                let added = SecItemAdd(item as CFDictionary, nil)
                guard added == errSecSuccess else { throw .keychain(operation: "add", status: added) }
            } else if status != errSecSuccess {
                throw .keychain(operation: "update", status: status)
            }
            return .keychain(service: service)
        }

        /// Deletes the item of `account`.
        ///
        /// - Parameter account: The account.
        /// - Returns: `true` when an item was deleted.
        /// - Throws: ``SecretStoreError/keychain(operation:status:)`` for an unexpected status.
        @discardableResult
        public func deleteSecret(for account: String) throws(SecretStoreError) -> Bool {
            let status = SecItemDelete(baseQuery(account) as CFDictionary)
            if status == errSecItemNotFound { return false }
            guard status == errSecSuccess else { throw .keychain(operation: "delete", status: status) }
            return true
        }

        private func baseQuery(_ account: String) -> [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }
    }
#endif
