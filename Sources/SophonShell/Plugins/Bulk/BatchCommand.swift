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
        let client = try GeminiCall.client(context: context, services: services)
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
