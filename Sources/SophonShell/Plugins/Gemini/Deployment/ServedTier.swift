import SophonCore
import SophonGemini

/// The service tier that actually served a call, from its reply (gemini-wire-format-3.md §2):
/// `usageMetadata.serviceTier` on the Developer API, `usageMetadata.trafficType` on Vertex AI.
/// Shown by `--verbose` (`served by the flex tier`), as `serviceTier` in `--json` and in the
/// exchange log's settings.
enum ServedTier {
    /// The tier the reply reports (`flex`, `standard`, `priority`; Vertex AI's traffic type as
    /// the tier it names: ``UsageMetadata/servedTier``); `nil` when it reports none.
    static func of(_ usage: UsageMetadata?) -> String? {
        usage?.servedTier
    }

    /// `serviceTier` for a reply's `--json` members, when the reply reports one.
    static func members(_ usage: UsageMetadata?) -> [JSONMember] {
        of(usage).map { [JSONMember("serviceTier", .string($0))] } ?? []
    }

    /// Under `--verbose`, `served by the TIER tier` on stderr.
    static func report(_ usage: UsageMetadata?, context: CommandContext) {
        guard let tier = of(usage),
            let plugin = context.registry.plugins.lazy.compactMap({ $0 as? GeminiPlugin }).first,
            plugin.services?.options.verbose == true
        else { return }
        context.io.printError("served by the \(tier) tier")
    }
}
