import Foundation
import SophonCore

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
        (try? readObject())?["model"] as? String
    }

    /// Writes the selection; failures leave the file as it was (see ``save(_:)`` to see them).
    public func saveSelection(_ id: String?) { try? save(id) }

    /// Writes `{"model": id}` (other keys kept), or removes `model` when `id` is `nil`.
    /// - Throws: file-system errors from creating the folder or writing the file.
    public func save(_ id: String?) throws {
        var object = (try? readObject()) ?? [:]
        object["model"] = id
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try AtomicFile.write(data + Data("\n".utf8), to: fileURL, folderPermissions: 0o700)
    }

    private func readObject() throws -> [String: Any]? {
        // FileSnapshot refuses a FIFO or a device instead of blocking or reading forever.
        guard let data = try FileSnapshot.read(at: fileURL)?.data else { return nil }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
