import Foundation
import SophonCore

/// `agents.json` in the state folder: every research job `research` started, written before
/// the create is sent (a Ctrl-C during the create leaves the job journaled, without its id)
/// and updated as its status is read (docs/interactions.md).
struct AgentJournal: Codable, Sendable {
    /// One job.
    struct Job: Codable, Sendable {
        /// The interaction id once the create answered; `nil` while (or if interrupted while)
        /// it was being created.
        var id: String?
        /// The agent.
        var agent: String
        /// The question asked.
        var question: String
        /// The last status read (`creating` before the create answered).
        var status: String
        /// When it was started (ISO 8601, UTC).
        var created: String
    }

    var jobs: [Job] = []

    /// The journal's place.
    static func url(_ services: GeminiServices) -> URL {
        services.paths.stateFolder.appendingPathComponent("agents.json")
    }

    /// Reads the journal; an absent file is an empty journal.
    /// - Throws: ``CommandFailure`` `fileError` for a file that is not a journal.
    static func load(_ url: URL) throws -> AgentJournal {
        guard let data = FileManager.default.contents(atPath: url.path) else { return AgentJournal() }
        do {
            return try JSONDecoder().decode(AgentJournal.self, from: data)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(url.path): not an agent journal (\(error))")
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
    /// - Throws: ``CommandFailure`` `fileError`.
    static func update(_ url: URL, _ body: (inout AgentJournal) -> Void) throws {
        var journal = try load(url)
        body(&journal)
        try journal.save(url)
    }

    /// Sets the status of job `id`.
    mutating func setStatus(_ status: String, of id: String) {
        for index in jobs.indices where jobs[index].id == id { jobs[index].status = status }
    }

    /// The job `id`.
    func job(_ id: String) -> Job? { jobs.last { $0.id == id } }

    /// Now, as the journal writes times.
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
