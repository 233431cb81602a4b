import Foundation
import Synchronization

/// The files one client uploaded, by the SHA-256 of their bytes and their MIME type, kept
/// while the file lives (48 h after upload, or its `expirationTime`), so the same bytes are
/// not uploaded twice (docs/library.md, "Files").
final class UploadMemo: Sendable {
    private struct Entry: Sendable {
        var file: GeminiFile
        var expires: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The remembered file for `key`, when it has not expired by `now`.
    func file(for key: String, now: Date = Date()) -> GeminiFile? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires > now else {
                entries[key] = nil
                return nil
            }
            return entry.file
        }
    }

    /// Remembers `file` for `key` until its expiration time (48 h from `now` when it has none).
    func remember(_ file: GeminiFile, for key: String, now: Date = Date()) {
        let stated = file.expirationDate
        let expires = stated ?? now.addingTimeInterval(48 * 3600)
        entries.withLock { $0[key] = Entry(file: file, expires: expires) }
    }

    /// Forgets every entry naming `name` (after a delete).
    func forget(name: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.file.name != name } }
    }

    /// Forgets everything.
    func clear() { entries.withLock { $0.removeAll() } }
}
