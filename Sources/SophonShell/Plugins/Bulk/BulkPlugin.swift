import Foundation

/// Bulk runs (docs/running-many-prompts.md): `run`, a JSON Lines file through the model with a
/// rate limiter and a resumable output, and `batch`, Google's Batch mode with a local journal.
/// Both send through the Gemini plugin's services (the one client, transcript and retry path).
final class BulkPlugin: ShellPlugin {
    let name = "bulk"
    /// The Gemini plugin, whose services the requests go through.
    let gemini: GeminiPlugin

    init(gemini: GeminiPlugin) {
        self.gemini = gemini
    }

    var commands: [PluginCommand] {
        [
            PluginCommand(
                name: "run",
                usage: "run INPUT -o OUTPUT [--prompt FILE] [--jobs N] [--rpm R] [--tpm T] [--retry-failed]",
                summary:
                    "every line of a JSON Lines file through the model, resumable (OUTPUT in input order)",
                options: RunCommand.declared, completion: .files,
                run: gemini.needingServices { try await RunCommand.run($0, context: $1, services: $2) }),
            PluginCommand(
                name: "batch",
                usage:
                    "batch submit INPUT [--name N] [--max-requests M] | list | status NAME | wait NAME | "
                    + "results NAME -o OUTPUT | cancel NAME | delete NAME | resubmit NAME",
                summary: "Google's Batch mode (half price, up to 24 h), with a local journal of the jobs",
                options: BatchCommand.declared,
                run: gemini.needingServices { try await BatchCommand.run($0, context: $1, services: $2) }),
        ]
    }
}
