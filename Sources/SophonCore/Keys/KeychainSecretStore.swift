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
