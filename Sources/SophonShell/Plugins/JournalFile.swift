import Foundation
import SophonCore

/// A local journal kept as one JSON file in the state folder (`batches.json`, `caches.json`,
/// `agents.json`): read whole (an absent file is an empty journal), written atomically and
/// private to the user (0600 in a 0700 folder). The one way the plugins keep such a file.
protocol JournalFile: Codable, Sendable {
    /// An empty journal.
    init()
    /// What the file is, for the error when it is not one: `batch journal`.
    static var kind: String { get }
}

extension JournalFile {
    /// Reads the journal at `url`; an absent file is an empty journal.
    /// - Throws: ``CommandFailure`` `fileError` for a file that is not such a journal.
    static func load(_ url: URL) throws -> Self {
        guard let data = FileManager.default.contents(atPath: url.path) else { return Self() }
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch {
            let article = "aeiou".contains(kind.first ?? "x") ? "an" : "a"
            throw CommandFailure(kind: .fileError, message: "\(url.path): not \(article) \(kind) (\(error))")
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

    /// Loads the journal at `url`, changes it with `body`, and saves it.
    /// - Throws: ``CommandFailure`` `fileError`, or what `body` throws.
    static func update(_ url: URL, _ body: (inout Self) throws -> Void) throws {
        var journal = try load(url)
        try body(&journal)
        try journal.save(url)
    }
}
