import Foundation
import SophonCore
import SophonGemini

/// `caches.json` in the state folder: the context caches `cache create` made, by the local
/// NAME the user gave, with the server's ID (`cachedContents/ID`), so `set cache NAME` and the
/// other `cache` commands need no listing call (docs/commands.md, "cache").
struct CacheJournal: JournalFile {
    static let kind = "cache journal"

    /// One cache.
    struct Entry: Codable, Sendable, Equatable {
        /// The local name (`cache create NAME`), also the cache's display name.
        var name: String
        /// `cachedContents/ID` (on Vertex AI `projects/P/locations/L/cachedContents/ID`).
        var id: String
        /// The model ID it was made for (a call using it goes to that model).
        var model: String
        /// Tokens it holds.
        var tokens: Int
        /// When it expires (RFC 3339), as last reported.
        var expireTime: String?
        /// Whether it holds a system instruction.
        var system: Bool
        /// Whether it holds tool declarations.
        var tools: Bool
    }

    var caches: [Entry] = []

    /// The journal's file in `paths`' state folder.
    static func url(_ paths: SophonPaths) -> URL {
        paths.stateFolder.appendingPathComponent("caches.json")
    }

    /// The entry named `name` (local name or `cachedContents/ID`).
    func entry(named name: String) -> Entry? {
        caches.last { $0.name == name || $0.id == name }
    }

    /// Replaces the entry with `entry`'s name, or adds it.
    mutating func put(_ entry: Entry) {
        caches.removeAll { $0.name == entry.name }
        caches.append(entry)
    }

    /// Removes the entry named `name` (local name or ID).
    mutating func remove(_ name: String) {
        caches.removeAll { $0.name == name || $0.id == name }
    }
}
