import Foundation
import SophonCore
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

/// The selection in a JSON file, `{"model": ID}` (the shell's `settings.json`).
///
/// Other top-level keys in the file are kept when the selection changes (written with sorted
/// keys). Writes go through SophonCore's `AtomicFile` (a reader never sees half a file; a
/// symlink is followed; a FIFO, device or folder at the path is refused). The folder is
/// created when missing.
public struct JSONFileGeminiModelStore: GeminiModelStore {
    /// The settings file.
    public let fileURL: URL

    /// A store backed by `fileURL`.
    public init(fileURL: URL) { self.fileURL = fileURL }

    /// The `model` string of the file; `nil` when the file is missing, unreadable, not a JSON
    /// object, or has no string `model`.
    public func loadSelection() -> String? {
        (try? readMembers())?.first { $0.key == "model" }?.value.stringValue
    }

    /// Writes the selection; failures leave the file as it was (see ``save(_:)`` to see them).
    public func saveSelection(_ id: String?) { try? save(id) }

    /// Writes `{"model": "ID"}` and a newline, on one line as docs/files.md shows it (other keys
    /// kept, in their order), or removes `model` when `id` is `nil`.
    /// - Throws: file-system errors from creating the folder or writing the file.
    public func save(_ id: String?) throws {
        var members = ((try? readMembers()) ?? []).filter { $0.key != "model" }
        if let id { members.insert(JSONMember("model", .string(id)), at: 0) }
        let text =
            "{"
            + members.map { JSONValue.string($0.key).compactText + ": " + $0.value.compactText }
            .joined(separator: ", ") + "}\n"
        try PrivateFiles.write(Data(text.utf8), to: fileURL, folder: .sophon)
    }

    private func readMembers() throws -> [JSONMember]? {
        // FileSnapshot refuses a FIFO or a device instead of blocking or reading forever.
        guard let data = try FileSnapshot.read(at: fileURL)?.data,
            case .object(let members) = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        else { return nil }
        return members
    }
}

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
