import Foundation
import SophonCore
import SophonGemini

/// `batches.json` in the state folder: every Batch job `batch submit` meant to create, written
/// before the create is sent, so a create whose answer was lost is looked up by display name
/// instead of being sent twice (docs/running-many-prompts.md).
struct BatchJournal: JournalFile {
    static let kind = "batch journal"

    /// One job.
    struct Job: Codable, Sendable {
        /// The display name (unique per job Sophon creates).
        var displayName: String
        /// `batches/ID` once the create answered (or the lookup found it); `nil` before.
        var name: String?
        /// The input file (absolute path) the requests came from.
        var input: String
        /// The model ID.
        var model: String
        /// The keys of the job, in input order.
        var keys: [String]
        /// Whether prompt lines were sent with the session's schema (answers are JSON).
        var structured: Bool
        /// The keys the input wrote as numbers (written back as numbers); `nil` for none.
        var numberKeys: [String]? = nil
        /// The session's schema the prompt lines were sent with (their answers are read by it,
        /// as `run` reads them); `nil` for none, or a job journaled before it was kept.
        var schema: GeminiSchema? = nil
        /// The SHA-256 of the job's requests as sent (each line's ``BulkRequest/fingerprint``
        /// in order): a submit of the same name and input reconciles with this job only when
        /// it sends the same requests. `nil` in a job journaled before it was kept (never
        /// matches: the input is submitted again as a new job).
        var requests: String? = nil
    }

    var jobs: [Job] = []

    /// The job with display name or resource name `name`.
    func job(named name: String) -> Job? {
        jobs.last { $0.name == name || $0.displayName == name }
    }
}
