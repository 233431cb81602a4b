import Foundation
import Synchronization

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
