import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// How the shell reaches Vertex AI (docs/vertex.md): `set backend vertex` or
/// `GOOGLE_GENAI_USE_VERTEXAI=true`; `GOOGLE_CLOUD_PROJECT`, `GOOGLE_CLOUD_LOCATION` (default
/// `global`); with a project, Application Default Credentials; without one, express mode with
/// the API key. `SOPHON_GEMINI_BASE_URL` replaces Vertex AI's host and Google's token host too,
/// so tests point every API at one server.
enum VertexSetup {
    /// Where and how calls go, as the client configuration takes it.
    struct Deployment: Sendable, Equatable {
        var backend: GeminiBackend = .developer
        var tokens: GoogleAccessTokens?
        /// `set service-tier`: `standard`, `flex`, `priority`; `nil` for the server's default.
        var tier: String?

        /// Whether calls go to the Flex tier (its long timeout and retries).
        var flex: Bool { tier == "flex" }

        static func == (lhs: Deployment, rhs: Deployment) -> Bool {
            lhs.backend == rhs.backend && lhs.tokens === rhs.tokens && lhs.tier == rhs.tier
        }

        /// Whether calls need the API key (the Developer API, or express mode).
        var needsKey: Bool { tokens == nil }
    }

    /// Token sources by credentials file and token endpoint: one per process, so a token is
    /// fetched once and kept in memory for every call of the run.
    private static let sources = Mutex<[String: GoogleAccessTokens]>([:])

    /// Whether the session uses Vertex AI: `set backend`, else `GOOGLE_GENAI_USE_VERTEXAI`
    /// (`true` or `1`, as the SDKs read it).
    static func usesVertex(_ state: DeploymentState, services: GeminiServices) -> Bool {
        if let backend = state.backend { return backend == "vertex" }
        let value = services.options.environment["GOOGLE_GENAI_USE_VERTEXAI"]?.lowercased() ?? ""
        return ["true", "1"].contains(value)
    }

    /// The deployment of the session's next call.
    /// - Throws: ``CommandFailure`` `credentialsError` saying which credentials file and what
    ///   is wrong with it, or why Vertex AI cannot be reached.
    static func deployment(session: ShellSession, services: GeminiServices) throws -> Deployment {
        let state = session.withDeploymentState { $0 }
        var deployment = Deployment(tier: state.serviceTier)
        guard usesVertex(state, services: services) else { return deployment }
        let environment = services.options.environment
        let location = environment["GOOGLE_CLOUD_LOCATION"].flatMap { $0.isEmpty ? nil : $0 } ?? "global"
        guard isLocation(location) else {
            // It goes into the host and the path: refused before anything is sent.
            throw CommandFailure(
                kind: .credentialsError,
                message:
                    "GOOGLE_CLOUD_LOCATION '\(location)' is not a Vertex AI location: use global, us, eu or a region "
                    + "such as us-central1")
        }
        var project = environment["GOOGLE_CLOUD_PROJECT"].flatMap { $0.isEmpty ? nil : $0 }
        let hasKey = (try? services.apiKey()) != nil
        if project == nil, hasKey, environment["GOOGLE_APPLICATION_CREDENTIALS"] == nil {
            // Express mode: the API key, no project.
            deployment.backend = .vertex(project: nil, location: location)
            return deployment
        }
        let tokens = try source(environment: environment, baseURL: services.baseURLOverride)
        project = project ?? tokens.credentials.projectID
        guard let project else {
            throw CommandFailure(
                kind: .credentialsError,
                message:
                    "Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (\(tokens.credentials.path) names none)"
            )
        }
        deployment.backend = .vertex(project: project, location: location)
        deployment.tokens = tokens
        return deployment
    }

    /// Whether `location` has the form of a Vertex AI location (`global`, `us`, `europe-west4`):
    /// lowercase letters and digits in words joined by single hyphens.
    static func isLocation(_ location: String) -> Bool {
        let words = location.split(separator: "-", omittingEmptySubsequences: false)
        return words.allSatisfy { word in
            !word.isEmpty
                && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    /// The token source of the ADC in `environment` (made once per file and endpoint).
    /// - Throws: ``CommandFailure`` `credentialsError`.
    private static func source(environment: [String: String], baseURL: URL?) throws -> GoogleAccessTokens {
        let credentials: GoogleCredentials
        do {
            credentials = try GoogleCredentials.load(environment: environment)
        } catch {
            throw CommandFailure(kind: .credentialsError, message: error.description)
        }
        let tokenURL = rebased(credentials.tokenURL, on: baseURL)
        let key = credentials.path + " " + tokenURL.absoluteString
        return sources.withLock { sources in
            if let known = sources[key] { return known }
            let made = GoogleAccessTokens(credentials: credentials, tokenURL: tokenURL)
            sources[key] = made
            return made
        }
    }

    /// `url` with `base`'s scheme, host and port when `url` is on a Google host
    /// (`*.googleapis.com`) and a base URL replaces Google's hosts; else `url`.
    static func rebased(_ url: URL, on base: URL?) -> URL {
        guard let base, let host = url.host, host == "googleapis.com" || host.hasSuffix(".googleapis.com"),
            var parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let baseParts = URLComponents(url: base, resolvingAgainstBaseURL: false)
        else { return url }
        parts.scheme = baseParts.scheme
        parts.host = baseParts.host
        parts.port = baseParts.port
        return parts.url ?? url
    }

    /// Every secret the token sources know (tokens issued, refresh tokens, private keys), for
    /// masking answers and errors.
    static var secrets: [String] {
        sources.withLock { $0.values.flatMap(\.secrets) }
    }

    /// Why `command` cannot run on Vertex AI (the Files API, Batch mode's Developer API forms
    /// and the Interactions API for models do not exist there: docs/vertex.md), before
    /// anything is sent; `nil` on the Developer API.
    static func refusal(_ command: String, session: ShellSession, services: GeminiServices) -> CommandFailure?
    {
        guard usesVertex(session.withDeploymentState { $0 }, services: services) else { return nil }
        return CommandFailure(kind: .notOnVertex, message: VertexMessages.refusal(command))
    }
}

extension VertexSetup {
    /// Why `cache` cannot run: Vertex AI express mode (an API key, no project) has no context
    /// caches (docs/vertex.md); `nil` on the Developer API and on Vertex AI with a project.
    /// Said before anything is sent.
    /// - Throws: ``CommandFailure`` `credentialsError` as ``deployment(session:services:)``.
    static func cacheRefusal(session: ShellSession, services: GeminiServices) throws -> CommandFailure? {
        try expressRefusal("cache", session: session, services: services)
    }

    /// Why `command` (`cache`, `models --live`) cannot run in Vertex AI express mode (an API
    /// key, no project), which serves generateContent, streaming and countTokens only
    /// (docs/vertex.md); `nil` on the Developer API and on Vertex AI with a project. Said
    /// before anything is sent.
    /// - Throws: ``CommandFailure`` `credentialsError` as ``deployment(session:services:)``.
    static func expressRefusal(_ command: String, session: ShellSession, services: GeminiServices) throws
        -> CommandFailure?
    {
        guard usesVertex(session.withDeploymentState { $0 }, services: services),
            case .vertex(project: nil, _) = try deployment(session: session, services: services).backend
        else { return nil }
        return CommandFailure(kind: .notOnVertex, message: VertexMessages.refusal(command))
    }

    /// A refused key or token said for the deployment in use (the library's wording names the
    /// Gemini API's key): on Vertex AI with credentials `credentialsError`, `Vertex AI refused
    /// the credentials in PATH (HTTP 401 UNAUTHENTICATED): ...`; in express mode `Vertex AI
    /// rejected the API key: ...`; `nil` for another error or the Developer API.
    static func refusedCredentials(_ error: GeminiError, context: CommandContext) -> CommandFailure? {
        guard case .invalidAPIKey(let message, let server) = error,
            let services = context.registry.plugins.lazy.compactMap({ ($0 as? GeminiPlugin)?.services })
                .first,
            usesVertex(context.session.withDeploymentState { $0 }, services: services),
            let deployment = try? deployment(session: context.session, services: services)
        else { return nil }
        guard let tokens = deployment.tokens else {
            return CommandFailure(
                kind: .invalidAPIKey,
                message: "Vertex AI rejected the API key: " + (server.map { "\($0.label): " } ?? "") + message
            )
        }
        return CommandFailure(
            kind: .credentialsError,
            message: "Vertex AI refused the credentials in \(tokens.credentials.path)"
                + (server.map { " (\($0.label)): \($0.message)" } ?? ": " + message))
    }
}

extension GoogleCredentialsError: CommandFailureConvertible {
    /// `credentialsError` with the description (which file, what is wrong; never a secret).
    var commandFailure: CommandFailure { CommandFailure(kind: .credentialsError, message: description) }
}

/// What the shell says about Vertex AI (docs/vertex.md, "What works on Vertex AI").
enum VertexMessages {
    /// Why `command` does not run on Vertex AI, said before anything is sent:
    /// `files: Vertex AI has no Files API; ...`.
    static func refusal(_ command: String) -> String {
        let why =
            switch command {
            case "files": "Vertex AI has no Files API; media goes inline (attach) or by gs:// URI"
            case "batch":
                "Vertex AI's batch prediction reads its input from Cloud Storage or BigQuery, not from inline "
                    + "requests or the Files API; use 'run' instead"
            case "interactions":
                "Vertex AI serves the Interactions API only for agents provisioned in your project, not for "
                    + "models; 'set api generate-content' asks the same on Vertex AI, or 'set backend developer'"
            case "research":
                "Deep Research runs on the Gemini Developer API; Vertex AI serves the Interactions API only for "
                    + "agents provisioned in your project ('set backend developer' to start one)"
            case "agent":
                "research jobs live on the Gemini Developer API; 'set backend developer' to reach them "
                    + "('agents' lists the journal on either backend)"
            case "cache":
                "Vertex AI express mode (an API key, no project) has no context caches; set GOOGLE_CLOUD_PROJECT "
                    + "(or 'set backend developer')"
            case "models --live":
                "Vertex AI express mode (an API key, no project) cannot list models; set GOOGLE_CLOUD_PROJECT "
                    + "(or 'set backend developer')"
            default: "\(command) is not available on Vertex AI"
            }
        return "\(command): \(why)"
    }
}
