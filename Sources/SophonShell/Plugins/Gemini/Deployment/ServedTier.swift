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

    /// The tier an exchange is priced at (docs/cost.md): Flex when the reply says the flex tier
    /// served it (`flex`; Vertex AI's `ON_DEMAND_FLEX`), or, when the reply names no tier, when
    /// the request asked for it (`set service-tier flex`); standard otherwise. Batch results are
    /// priced at ``GeminiServiceTier/batch`` by their reader.
    static func pricing(_ usage: UsageMetadata?, requested: String?) -> GeminiServiceTier {
        switch (of(usage) ?? requested)?.lowercased() {
        case "flex", "on_demand_flex": .flex
        default: .standard
        }
    }

    /// ``pricing(_:requested:)`` with the tier the session of `context` asks for.
    static func pricing(_ usage: UsageMetadata?, context: CommandContext) -> GeminiServiceTier {
        pricing(usage, requested: context.session.withDeploymentState { $0.serviceTier })
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
