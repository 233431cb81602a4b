import Foundation

/// The selection in `UserDefaults` (the usual home on Apple platforms; Foundation on Linux
/// has it too, backed by a property list file).
public struct UserDefaultsGeminiModelStore: GeminiModelStore {
    /// The defaults key holding the model ID.
    public let key: String
    /// The suite name, or `nil` for the standard defaults.
    public let suiteName: String?

    /// A store under `key` in the suite `suiteName` (`nil`: `UserDefaults.standard`).
    public init(key: String = "SophonGeminiModel", suiteName: String? = nil) {
        self.key = key
        self.suiteName = suiteName
    }

    // UserDefaults is not Sendable on every platform, so it is looked up on each use.
    private var defaults: UserDefaults {
        suiteName.flatMap { UserDefaults(suiteName: $0) } ?? .standard
    }

    /// The stored ID.
    public func loadSelection() -> String? { defaults.string(forKey: key) }

    /// Stores or removes the ID.
    public func saveSelection(_ id: String?) {
        if let id { defaults.set(id, forKey: key) } else { defaults.removeObject(forKey: key) }
    }
}
