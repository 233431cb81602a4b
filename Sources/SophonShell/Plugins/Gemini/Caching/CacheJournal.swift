import Foundation
import SophonCore
import SophonGemini

/// `caches.json` in the state folder: the context caches `cache create` made, by the local
/// NAME the user gave, with the server's ID (`cachedContents/ID`), so `set cache NAME` and the
/// other `cache` commands need no listing call (docs/commands.md, "cache").
struct CacheJournal: Codable, Sendable {
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

    /// Reads the journal at `url`; an absent file is an empty journal.
    /// - Throws: ``CommandFailure`` `fileError` for a file that is not a cache journal.
    static func load(_ url: URL) throws -> CacheJournal {
        guard let data = FileManager.default.contents(atPath: url.path) else { return CacheJournal() }
        do {
            return try JSONDecoder().decode(CacheJournal.self, from: data)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(url.path): not a cache journal (\(error))")
        }
    }

    /// Writes the journal atomically, private to the user.
    /// - Throws: ``CommandFailure`` `fileError`.
    func save(_ url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivateFiles.write(try encoder.encode(self), to: url, folder: .sophon)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(error)")
        }
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
