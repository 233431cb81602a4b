import Foundation
import Synchronization

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

/// Reads secrets from environment variables, a read-only source that overrides the stores.
///
/// Each account maps to variable names in order of precedence. For `gemini` that is
/// `GOOGLE_API_KEY` then `GEMINI_API_KEY`, the order Google's Gen AI SDKs use. When more than
/// one is set, the first wins and a warning is logged once per store and account:
/// `Both GOOGLE_API_KEY and GEMINI_API_KEY are set; using GOOGLE_API_KEY.`
///
/// A value that is empty or only whitespace counts as unset; surrounding whitespace and
/// newlines are trimmed from the value used.
public struct EnvironmentSecretStore: SecretReading {
    /// The default mapping: `gemini` -> `GOOGLE_API_KEY`, `GEMINI_API_KEY`.
    public static let defaultVariables: [String: [String]] = [
        "gemini": ["GOOGLE_API_KEY", "GEMINI_API_KEY"]
    ]

    /// Account -> variable names, most important first.
    public let variables: [String: [String]]
    private let environment: [String: String]
    private let logger: SophonLogger
    private let warned = WarnedAccounts()

    /// Creates a store over an environment.
    ///
    /// - Parameters:
    ///   - environment: The variables to read; defaults to this process's environment.
    ///   - variables: Account -> variable names, most important first.
    ///   - logger: Where the "both are set" warning goes.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        variables: [String: [String]] = EnvironmentSecretStore.defaultVariables,
        logger: SophonLogger = .shared
    ) {
        self.environment = environment
        self.variables = variables
        self.logger = logger
    }

    /// The variables consulted for `account`, most important first (empty when unmapped).
    ///
    /// - Parameter account: The account name.
    /// - Returns: The variable names.
    public func variableNames(for account: String) -> [String] {
        variables[account] ?? []
    }

    /// The value of the first set variable of `account`, trimmed; warns (once) when several
    /// are set.
    ///
    /// - Parameter account: The account name, e.g. `gemini`.
    /// - Returns: The secret with source ``SecretSource/environment(variable:)``, or `nil` when
    ///   no mapped variable is set to a non-blank value.
    public func secret(for account: String) -> SecretLookup? {
        let set = variableNames(for: account).compactMap { name -> (String, String)? in
            guard let raw = environment[name] else { return nil }
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            return value.isEmpty ? nil : (name, value)
        }
        guard let (name, value) = set.first else { return nil }
        if set.count > 1, warned.firstTime(account) {
            logger.warning(Self.conflictMessage(set.map(\.0)))
        }
        return SecretLookup(secret: value, source: .environment(variable: name))
    }

    /// The warning for several set variables, the first being used:
    /// `Both A and B are set; using A.` or `A, B and C are set; using A.`
    static func conflictMessage(_ names: [String]) -> String {
        guard let first = names.first, let last = names.last, names.count > 1 else { return "" }
        if names.count == 2 { return "Both \(first) and \(last) are set; using \(first)." }
        return "\(names.dropLast().joined(separator: ", ")) and \(last) are set; using \(first)."
    }
}

/// The accounts already warned about, shared by copies of one store.
private final class WarnedAccounts: Sendable {
    private let accounts = Mutex<Set<String>>([])

    /// `true` the first time `account` is seen.
    func firstTime(_ account: String) -> Bool {
        accounts.withLock { $0.insert(account).inserted }
    }
}
