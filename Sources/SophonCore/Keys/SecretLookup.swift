/// Where a secret was found, or stored.
public enum SecretSource: Sendable, Hashable, CustomStringConvertible {
    /// An environment variable, by name (e.g. `GOOGLE_API_KEY`).
    case environment(variable: String)
    /// A file store, by path (e.g. `/home/ada/.config/sophon/keys.json`).
    case file(path: String)
    /// The Apple Keychain, by service name (generic password items).
    case keychain(service: String)

    /// For people: `environment variable GOOGLE_API_KEY`, `file /home/ada/.config/sophon/keys.json`,
    /// `Keychain (service Sophon)`.
    public var description: String {
        switch self {
        case .environment(let variable): "environment variable \(variable)"
        case .file(let path): "file \(path)"
        case .keychain(let service): "Keychain (service \(service))"
        }
    }
}

/// A secret and where it came from.
///
/// Printing a lookup (`description`, `debugDescription`, string interpolation) shows the secret
/// masked (``SecretMask/mask(_:)``), so an accidental `print` does not leak it.
public struct SecretLookup: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret itself, never empty.
    public let secret: String
    /// Where it was found.
    public let source: SecretSource

    /// Creates a lookup result.
    ///
    /// - Parameters:
    ///   - secret: The secret.
    ///   - source: Where it was found.
    public init(secret: String, source: SecretSource) {
        self.secret = secret
        self.source = source
    }

    /// `MASK from SOURCE`, e.g. `••••cD3f from environment variable GOOGLE_API_KEY`.
    public var description: String { "\(SecretMask.mask(secret)) from \(source)" }

    /// The same as ``description``: the secret stays masked.
    public var debugDescription: String { description }
}
