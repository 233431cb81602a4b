import Foundation
import SophonCore
import SophonGemini

/// `batch submit|list|status|wait|results|cancel|delete|resubmit` (docs/running-many-prompts.md):
/// Google's Batch mode with the local journal `batches.json`.
enum BatchCommand {
    /// The inline limit: bytes of create body (base64 included).
    static let inlineLimit = GeminiBatchInput.defaultInlineLimit
    /// `--max-requests` when not given.
    static let defaultMaxRequests = 50_000

    /// The options of `batch submit` and `batch results`, declared once.
    static let declared = [
        CommandOption(name: "--name", value: "N", help: "the job's display name (submit)", missing: "a name"),
        CommandOption(name: "--max-requests", value: "M", help: "at most M lines a job (submit; 50000)"),
        CommandOption(
            name: "--estimate", help: "count the tokens and print the expected cost at Batch price (submit)"),
        CommandOption(
            name: "--output", aliases: ["-o"], value: "OUTPUT", help: "where the results go (results)"),
    ]

    /// Runs `batch SUBCOMMAND ...`.
    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) async throws
        -> CommandResult
    {
        var words = request.arguments[...]
        guard let sub = words.popFirst() else { throw context.usageFailure("batch") }
        if let refusal = VertexSetup.refusal("batch", session: context.session, services: services) {
            throw refusal
        }
        let client = try GeminiCall.client(command: "batch", context: context, services: services)
        let journalURL = services.paths.stateFolder.appendingPathComponent("batches.json")
        let session = BatchSession(
            client: client, journalURL: journalURL, context: context, services: services)
        do {
            switch sub {
            case "submit": return try await session.submit(Array(words))
            case "list": return try await session.list()
            case "status": return try await session.status(try one(words, context))
            case "wait": return try await session.wait(try one(words, context))
            case "results": return try await session.results(Array(words))
            case "cancel":
                try await client.cancelBatch(try await session.resolve(try one(words, context)))
                return .none
            case "delete": return try await session.delete(try one(words, context))
            case "resubmit": return try await session.resubmit(try one(words, context))
            default:
                throw context.usageFailure("batch", hint: "unknown subcommand '\(sub)'")
            }
        } catch let error as GeminiError {
            // The server's answer (a 404 for the job); the runtime names the subcommand, as for
            // every failure of a subcommand.
            throw GeminiCall.failure(error, context: context)
        } catch let error as GeminiFileError {
            throw GeminiCall.failure(error)
        }
    }

    private static func one(_ words: ArraySlice<String>, _ context: CommandContext) throws -> String {
        guard words.count == 1, let name = words.first else {
            throw context.usageFailure("batch", hint: "one NAME: batches/ID or the display name")
        }
        return name
    }
}

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
