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
    /// - Throws: ``CommandFailure`` `fileError` for a file that is not such a journal (with the
    ///   line and column where its JSON breaks, or the member that has the wrong shape), and for
    ///   a path that is not a readable regular file (a folder, a FIFO): such a journal could not
    ///   be saved either, so a command that would then lose what it started (a cache, a batch, a
    ///   research job) fails before sending anything.
    static func load(_ url: URL) throws -> Self {
        let snapshot: FileSnapshot?
        do {
            snapshot = try FileSnapshot.read(at: url)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(error)")
        }
        guard let data = snapshot?.data else { return Self() }
        let article = "aeiou".contains(kind.first ?? "x") ? "an" : "a"
        do {
            _ = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(url.path): not \(article) \(kind) (\(error))")
        }
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw CommandFailure(
                kind: .fileError, message: "\(url.path): not \(article) \(kind) (\(Self.shapeError(error)))")
        }
    }

    /// Where and how a journal's JSON misses the journal's shape: `$.caches[0].name: expected
    /// a string`, `$.caches[0]: no 'id'`.
    static func shapeError(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("$") { text, key in
                key.intValue.map { text + "[\($0)]" } ?? text + "." + key.stringValue
            }
        }
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let noun =
                switch type {
                case is String.Type: "a string"
                case is Bool.Type: "true or false"
                case is Int.Type, is Double.Type, is Int64.Type: "a number"
                case is [Any].Type: "an array"
                case is [String: Any].Type: "an object"
                default: "\(type)"
                }
            return "\(path(context.codingPath)): expected \(noun)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath)): no '\(key.stringValue)'"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
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
