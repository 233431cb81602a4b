import Synchronization

/// Where the user's model selection (a model ID) persists between runs.
///
/// Implementations: ``InMemoryGeminiModelStore`` (tests), ``JSONFileGeminiModelStore`` (the
/// shell's `settings.json`) and ``UserDefaultsGeminiModelStore``. The methods do not throw: a
/// store that cannot read reports no selection, one that cannot write keeps the old value.
public protocol GeminiModelStore: Sendable {
    /// The stored model ID, or `nil` when none is stored.
    func loadSelection() -> String?
    /// Stores `id`, or removes the selection when `id` is `nil`.
    func saveSelection(_ id: String?)
}

/// A selection kept in memory, safe to use from many tasks.
public final class InMemoryGeminiModelStore: GeminiModelStore {
    private let selection: Mutex<String?>

    /// A store holding `selection` (none by default).
    public init(selection: String? = nil) { self.selection = Mutex(selection) }

    /// A store holding `initial`.
    public convenience init(_ initial: String?) { self.init(selection: initial) }

    /// The stored ID.
    public func loadSelection() -> String? { selection.withLock { $0 } }

    /// Replaces the stored ID.
    public func saveSelection(_ id: String?) { selection.withLock { $0 = id } }
}
