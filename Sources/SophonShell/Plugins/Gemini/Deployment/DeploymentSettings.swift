import Foundation
import SophonCore
import SophonGemini

/// Where and how calls are served (docs/commands.md, "Settings"; docs/vertex.md): the
/// settings `cache`, `service-tier` and `backend` of the one settings table, owned by the
/// gemini plugin.
struct DeploymentState: PluginSessionState {
    /// `set cache NAME`: the cache calls answer from; `nil` for none.
    var cache: CacheJournal.Entry?
    /// `set service-tier`: `standard`, `flex` or `priority`; `nil` sends none (the server's
    /// default, standard).
    var serviceTier: String?
    /// `set backend`: `developer` or `vertex`; `nil` follows `GOOGLE_GENAI_USE_VERTEXAI`.
    var backend: String?
}

extension ShellSession {
    /// Runs `body` with exclusive access to the deployment settings of this session.
    func withDeploymentState<Result>(_ body: (inout DeploymentState) throws -> Result) rethrows -> Result {
        try withPluginState(DeploymentState.self, body)
    }
}

/// `set` and `show` of the deployment settings, and what they do to a request.
enum DeploymentSettings {
    /// The service tiers `set service-tier` takes (lowercase, as the API requires).
    static let tiers = ["standard", "flex", "priority"]

    /// The rows of the settings table.
    static let definitions = [
        SettingDefinition(name: "cache", values: ["off"]),
        SettingDefinition(name: "service-tier", values: ["default"] + tiers),
        SettingDefinition(name: "backend", values: ["developer", "vertex"]),
    ]

    /// `set cache NAME|off`, `set service-tier TIER|default`, `set backend developer|vertex`;
    /// `nil` for another setting.
    /// - Throws: ``CommandFailure`` `invalidSetting`, or `cacheNotFound` for a name the cache
    ///   journal does not hold.
    static func set(_ name: String, _ words: [String], context: CommandContext, services: GeminiServices?)
        throws
        -> CommandResult?
    {
        let value = words.joined(separator: " ")
        func invalid(_ expectation: String, among values: [String] = []) -> CommandFailure {
            .invalidSetting(name, expected: expectation, got: value, among: values)
        }
        switch name {
        case "cache":
            if ["", "off", "none"].contains(value.lowercased()) {
                context.session.withDeploymentState { $0.cache = nil }
                return CommandResult.none
            }
            guard let services else { throw invalid("a cache name") }
            if let refusal = try VertexSetup.cacheRefusal(session: context.session, services: services) {
                throw refusal
            }
            // A cache ID the journal does not hold (made elsewhere) is taken as it is: its model and
            // what it holds are unknown, so the call's model is not checked against it.
            guard
                let entry = try CacheJournal.load(CacheJournal.url(services.paths)).entry(named: value)
                    ?? CacheJournal.unjournaled(value)
            else {
                throw CommandFailure(
                    kind: .cacheNotFound,
                    message:
                        "set cache: no cache named '\(value)' (make one with 'cache create \(value) ...')")
            }
            context.session.withDeploymentState { $0.cache = entry }
            return CommandResult.none
        case "service-tier":
            let tier = value.lowercased()
            guard tier == "default" || tiers.contains(tier) else {
                throw invalid("standard, flex, priority or default", among: tiers + ["default"])
            }
            context.session.withDeploymentState { $0.serviceTier = tier == "default" ? nil : tier }
            // `show timeout` and plugins' commands see the timeout Flex calls get.
            context.session.withState {
                $0.settings.defaultTimeout =
                    tier == "flex" ? GeminiServices.flexTimeout : ShellSettings.standardTimeout
            }
            return CommandResult.none
        case "backend":
            let backend = value.lowercased()
            guard ["developer", "vertex"].contains(backend) else {
                throw invalid("developer or vertex", among: ["developer", "vertex"])
            }
            context.session.withDeploymentState { $0.backend = backend }
            return CommandResult.none
        default:
            return nil
        }
    }

    /// `show cache`, `show service-tier`, `show backend`; `nil` for another name.
    static func show(_ name: String, context: CommandContext, services: GeminiServices?) -> CommandResult? {
        let state = context.session.withDeploymentState { $0 }
        switch name {
        case "cache": return .text(state.cache?.name ?? "off")
        case "service-tier": return .text(state.serviceTier ?? "default")
        case "backend":
            return .text(
                services.map { VertexSetup.usesVertex(state, services: $0) ? "vertex" : "developer" }
                    ?? "developer")
        default: return nil
        }
    }

    /// `request` under the session's deployment settings: the service tier set, and with a
    /// cache in force `cachedContent` set and the system instruction, tools and tool
    /// configuration left out (the API refuses them beside a cache); a note says so when the
    /// session had a system instruction or tools the cache does not hold.
    /// - Throws: ``CommandFailure`` `invalidSetting` when the cache was made for another model.
    static func apply(to request: GenerateContentRequest, model: GeminiModel, context: CommandContext) throws
        -> GenerateContentRequest
    {
        let state = context.session.withDeploymentState { $0 }
        var request = request
        request.serviceTier = state.serviceTier
        guard let cache = state.cache else { return request }
        guard cache.model.isEmpty || cache.model == model.id else {
            throw CommandFailure(
                kind: .invalidSetting,
                message:
                    "cache '\(cache.name)' holds context for \(cache.model), not \(model.id): "
                    + "set model \(cache.model), or set cache off")
        }
        if request.systemInstruction != nil, !cache.system {
            context.io.printError(
                ShellMessages.note(
                    "the system instruction is not sent with cache '\(cache.name)' (a call from a cache cannot carry one)"
                ))
        }
        if request.tools != nil, !cache.tools {
            context.io.printError(
                ShellMessages.note(
                    "tools are not sent with cache '\(cache.name)' (a call from a cache cannot carry them)"))
        }
        return request.usingCache(cache.id)
    }

    /// A call refused because its cache is gone (the API's 403 "CachedContent not found"),
    /// said as such: the cache in force expired or was deleted; `nil` for any other error.
    static func cacheFailure(_ error: GeminiError, context: CommandContext) -> CommandFailure? {
        let server: GeminiServerStatus?
        switch error {
        case .invalidAPIKey(_, let status): server = status
        case .http(let status, let apiStatus, let message, _):
            server = GeminiServerStatus(status: status, apiStatus: apiStatus, message: message)
        default: server = nil
        }
        guard let server, server.status == 403, server.message.contains("CachedContent") else { return nil }
        let cache = context.session.withDeploymentState { $0.cache }
        let subject = cache.map { "cache '\($0.name)' (\($0.id))" } ?? "the cache"
        return CommandFailure(
            kind: .cacheNotFound,
            message:
                "\(subject) has expired or was deleted (HTTP 403: \(server.message)); make it again with 'cache create'"
        )
    }
}

/// The service tier that actually served a call, from its reply (docs/commands.md, "tier"):
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
