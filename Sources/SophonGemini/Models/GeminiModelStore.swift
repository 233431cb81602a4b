import Synchronization

/// Placeholder: persistence of the selected model ID; replaced by the model-catalog helper.
public protocol GeminiModelStore: Sendable {
    /// The stored model ID, or `nil` when none is stored.
    func loadSelection() -> String?
    /// Stores `id`, or clears the selection when `nil`.
    func saveSelection(_ id: String?)
}

/// A model store in memory (tests, short-lived programs).
public final class InMemoryGeminiModelStore: GeminiModelStore {
    private let selection: Mutex<String?>

    /// Creates a store holding `selection`.
    public init(selection: String? = nil) { self.selection = Mutex(selection) }

    /// The stored model ID.
    public func loadSelection() -> String? { selection.withLock { $0 } }

    /// Stores `id`.
    public func saveSelection(_ id: String?) { selection.withLock { $0 = id } }
}
