import Foundation

/// `agents.json` in the state folder: every research job `research` started, written before
/// the create is sent (a Ctrl-C during the create leaves the job journaled, without its id)
/// and updated as its status is read (docs/interactions.md).
struct AgentJournal: JournalFile {
    static let kind = "agent journal"

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
        /// Whether its usage was counted (`show usage`) and its report logged: once, by the
        /// command that first followed it to its report; `nil` before.
        var counted: Bool?
    }

    var jobs: [Job] = []

    /// The journal's place.
    static func url(_ services: GeminiServices) -> URL {
        services.paths.stateFolder.appendingPathComponent("agents.json")
    }

    /// Sets the status of job `id`.
    mutating func setStatus(_ status: String, of id: String) {
        for index in jobs.indices where jobs[index].id == id { jobs[index].status = status }
    }

    /// Marks job `id`'s usage as counted.
    mutating func setCounted(_ id: String) {
        for index in jobs.indices where jobs[index].id == id { jobs[index].counted = true }
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
