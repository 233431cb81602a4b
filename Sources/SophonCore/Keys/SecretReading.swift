/// Something that can look up a secret by account (the shell's account is `gemini`).
///
/// Shaped like SwiftPM's `AuthorizationProvider`: reading is separate from writing
/// (``SecretWriting``), so read-only sources such as the environment fit the same slot.
public protocol SecretReading: Sendable {
    /// Looks up the secret of `account`.
    ///
    /// - Parameter account: The account name, e.g. `gemini`.
    /// - Returns: The secret and its source, or `nil` when this source has none.
    /// - Throws: When the source exists but cannot be read (Sophon's stores throw
    ///   ``SecretStoreError``).
    func secret(for account: String) throws -> SecretLookup?
}

/// A secret store that can also save and delete.
public protocol SecretWriting: SecretReading {
    /// Stores `secret` for `account`, replacing any previous one.
    ///
    /// - Parameters:
    ///   - secret: The secret, not empty.
    ///   - account: The account name.
    /// - Returns: Where the secret now lives.
    /// - Throws: When it cannot be stored (Sophon's stores throw ``SecretStoreError``).
    @discardableResult
    func save(_ secret: String, for account: String) throws -> SecretSource

    /// Removes the secret of `account`.
    ///
    /// - Parameter account: The account name.
    /// - Returns: `true` when a secret was removed, `false` when there was none.
    /// - Throws: When the store cannot be read or written.
    @discardableResult
    func deleteSecret(for account: String) throws -> Bool
}
