import Foundation
import SophonCore
import SophonGemini
import SophonMedia
import Synchronization

/// The Gemini side of one `sophon` run: the client (made on first use, so runs that never call
/// the API never start URLSession), the transcript (live, recording or replaying a tape: HTTP
/// exchanges and served tool results go through it), the key lookup and the `--verbose` log
/// (docs/tapes.md).
final class GeminiServices: Sendable {
    /// How the run was started.
    struct Options: Sendable {
        var verbose = false
        var recordTape: String?
        var replayTape: String?
        var environment: [String: String] = ProcessInfo.processInfo.environment
    }

    /// Why the services cannot start: a usage error (exit 2) before anything runs.
    struct StartError: Error {
        var message: String
    }

    let options: Options
    let io: ShellIO
    let paths: SophonPaths
    /// The server calls go to (Google's endpoint when `SOPHON_GEMINI_BASE_URL` is unset).
    let baseURL: URL
    /// Why `SOPHON_GEMINI_BASE_URL` cannot be used, if it cannot: reported when a command
    /// needs the network, so offline commands still run.
    let baseURLProblem: String?
    /// `SOPHON_GEMINI_BASE_URL` when it is set and usable: it replaces Vertex AI's host and
    /// Google's token host too (docs/vertex.md).
    var baseURLOverride: URL? {
        baseURLProblem == nil && options.environment["SOPHON_GEMINI_BASE_URL"]?.isEmpty == false
            ? baseURL : nil
    }
    /// The key lookup: the environment first, then the key file. One instance, so the
    /// "both variables are set" warning comes once.
    let keychain: SophonKeychain
    /// Where exchanges and served tool results go: made once from `--record` / `--replay`.
    let transcript: any GeminiTranscript
    private let client = Mutex<GeminiAPIClient?>(nil)
    /// Retries and fallback of the call in flight, from the client's events.
    let retriesInFlight = RetryCounter()
    /// The prices of this run (`prices.json` over the built-in table; docs/cost.md).
    let prices: PriceBook
    /// Turns the client's events into `--verbose` lines.
    private let verboseLog = VerboseLog()

    /// Sets up the transport; opens the tape to replay or creates the one to record.
    /// - Throws: ``StartError`` for a bad `SOPHON_GEMINI_BASE_URL` or an unusable tape.
    init(options: Options, io: ShellIO) throws(StartError) {
        self.options = options
        self.io = io
        paths = SophonPaths(environment: options.environment)
        keychain = SophonKeychain(environment: options.environment)
        prices = PriceBook(file: paths.configFolder.appendingPathComponent("prices.json"), io: io)
        do {
            baseURL = try Self.baseURL(from: options.environment["SOPHON_GEMINI_BASE_URL"])
            baseURLProblem = nil
        } catch {
            guard options.replayTape == nil, options.recordTape == nil else { throw error }
            baseURL = URL(string: "https://generativelanguage.googleapis.com")!
            baseURLProblem = error.message
        }
        let output = io
        do {
            if let replay = options.replayTape {
                transcript = try GeminiTapeReplayer(
                    contentsOf: URL(fileURLWithPath: replay), baseURL: baseURL,
                    warning: { output.printError(ShellMessages.warning("\(replay): \($0)")) })
            } else if let record = options.recordTape {
                // A folder, FIFO or device at TAPE is refused before anything runs, not after
                // the run, when its tape could not take TAPE's place (docs/tapes.md).
                _ = try AtomicFile.resolvedTarget(record)
                transcript = try GeminiTapeRecorder(
                    wrapping: URLSessionTransport(),
                    tapeURL: URL(fileURLWithPath: RecordedTape.partialPath(of: record)), baseURL: baseURL,
                    secrets: [], warning: { output.printError(ShellMessages.warning("\(record): \($0)")) })
            } else {
                transcript = GeminiLiveTranscript(transport: URLSessionTransport())
            }
        } catch {
            let path = options.replayTape ?? options.recordTape ?? ""
            let message = "\(error)"
            throw StartError(message: message.contains(path) ? message : "\(path): \(message)")
        }
    }

    /// `SOPHON_GEMINI_BASE_URL` (`scheme://host[:port][/prefix]`, a trailing `/v1beta`
    /// tolerated) or Google's endpoint.
    static func baseURL(from text: String?) throws(StartError) -> URL {
        guard var text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return URL(string: "https://generativelanguage.googleapis.com")!
        }
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix("/v1beta") { text.removeLast("/v1beta".count) }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw StartError(message: "SOPHON_GEMINI_BASE_URL '\(text)' is not scheme://host[:port][/prefix]")
        }
        return url
    }

    /// The key calls use, and where it came from; `nil` when none is set.
    /// - Throws: ``CommandFailure`` (`insecureKeyFile`, `keyStoreError`) when the key file is
    ///   readable by others or corrupt; `invalidAPIKey` when the key has a character outside
    ///   printable ASCII or a blank (it is never sent).
    func apiKey() throws -> SecretLookup? {
        let lookup: SecretLookup?
        do {
            lookup = try keychain.load()
        } catch {
            throw CommandFailure(kind: .keyStoreError, message: "\(error)")
        }
        if let lookup, let bad = APIKeyCharacters.firstBadCharacter(in: lookup.secret) {
            throw CommandFailure(
                kind: .invalidAPIKey, message: bad.message(subject: "the API key from \(lookup.source)"))
        }
        return lookup
    }

    /// The key, for masking what is shown (never printed): `nil` when there is none.
    var apiKeyForMasking: String? {
        guard let key = (try? keychain.load())?.secret, !key.isEmpty else { return nil }
        return key
    }

    /// `text` with the key masked (`••••cD3f`): answers are shown with the key masked too,
    /// since a server (or a model) may echo it.
    func redact(_ text: String) -> String {
        let secrets = ([(try? keychain.load())?.secret ?? ""] + VertexSetup.secrets).filter { !$0.isEmpty }
        guard !secrets.isEmpty else { return text }
        return SecretMask.redact(text, secrets: secrets)
    }

    /// `value` with the key masked in every string.
    func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(redact(text))
        case .array(let elements): .array(elements.map(redact))
        case .object(let members): .object(members.map { JSONMember(redact($0.key), redact($0.value)) })
        case .null, .bool, .number: value
        }
    }

    /// The client, made on first use, and made again when the session's fallback model
    /// (`retry-policy fallback=MODEL`) or timeout changed.
    func makeClient(session: ShellSession, deployment: VertexSetup.Deployment = .init()) -> GeminiAPIClient {
        let (fallback, timeout) = (
            session.withGeminiState { $0.fallbackModel }, session.settings.chosenTimeout
        )
        return client.withLock { existing in
            if let existing, existing.configuration.fallbackModel.id == fallback,
                existing.configuration.callTimeout == Self.callTimeout(timeout, deployment),
                Self.deployment(of: existing.configuration) == deployment
            {
                return existing
            }
            let settings = configuration(fallbackModel: fallback, timeout: timeout, deployment: deployment)
            // Uploads are remembered per process (docs/commands.md, "attach"): a client made
            // again keeps the previous one's.
            let made =
                existing.map {
                    GeminiAPIClient(
                        configuration: settings, transport: transcript.transport, sharingUploadsWith: $0)
                } ?? GeminiAPIClient(configuration: settings, transport: transcript.transport)
            existing = made
            return made
        }
    }

    /// A client for a dry run: the session's configuration over `transport`, which keeps the
    /// request instead of sending it. It needs no key: a placeholder fills the header the dry
    /// run never shows.
    func makeDryRunClient(session: ShellSession, transport: DryRunTransport) -> GeminiAPIClient {
        let (fallback, timeout) = (
            session.withGeminiState { $0.fallbackModel }, session.settings.chosenTimeout
        )
        var deployment = (try? VertexSetup.deployment(session: session, services: self)) ?? .init()
        deployment.tokens = nil
        var configuration = configuration(fallbackModel: fallback, timeout: timeout, deployment: deployment)
        configuration.apiKeyProvider = { "dry-run" }
        return GeminiAPIClient(configuration: configuration, transport: transport)
    }

    private func configuration(fallbackModel: String, timeout: Duration?, deployment: VertexSetup.Deployment)
        -> GeminiClientConfiguration
    {
        let keychain = keychain
        let output = io
        let verbose = options.verbose
        let retries = retriesInFlight
        let log = verboseLog
        var configuration = GeminiClientConfiguration(
            keychainAccount: SophonKeychain.geminiAccount,
            defaultModel: GeminiModel(id: GeminiModel.shellDefaultModelID),
            fallbackModel: GeminiModel(id: fallbackModel),
            availableModels: GeminiModel.allPresets,
            baseURL: baseURL,
            requestTimeout: deployment.flex ? Self.flexTimeout : .seconds(120),
            callTimeout: Self.callTimeout(timeout, deployment),
            modelStore: JSONFileGeminiModelStore(fileURL: paths.settingsFile),
            apiKeyProvider: { (try? keychain.load())?.secret },
            observer: { event in
                switch event {
                case .retrying: retries.add()
                case .fallback(_, _, let to): retries.fellBack(to: to)
                default: break
                }
                if verbose, let line = log.line(for: event) { output.printError(line) }
            })
        // Downscale on retry re-encodes image parts with SophonMedia's codec (docs/commands.md).
        configuration.imageDownscaler = MediaImageDownscaler()
        configuration.backend = deployment.backend
        configuration.accessTokens = deployment.tokens
        configuration.serviceTier = deployment.tier
        return transcript.configured(
            configuration,
            skippedWait: { wait in
                if verbose { output.printError("(replay: skipped a \(DurationParser.format(wait)) wait)") }
            })
    }
}

extension GeminiServices {
    /// The whole-call and idle timeout of the Flex tier when `timeout` is not set: 20 minutes
    /// (Flex may queue a request up to 15 minutes before its first byte).
    static let flexTimeout = Duration.seconds(20 * 60)

    /// The whole-call limit: what `set timeout` chose (`nil`: not set), else Flex's 20 minutes
    /// under Flex and the shell's default otherwise.
    static func callTimeout(_ timeout: Duration?, _ deployment: VertexSetup.Deployment) -> Duration {
        timeout ?? (deployment.flex ? flexTimeout : ShellSettings.standardTimeout)
    }

    /// The deployment a client was made with.
    static func deployment(of configuration: GeminiClientConfiguration) -> VertexSetup.Deployment {
        VertexSetup.Deployment(
            backend: configuration.backend, tokens: configuration.accessTokens,
            tier: configuration.serviceTier)
    }
}

/// The `--verbose` lines (docs/language.md): `-> POST /v1beta/models/M:generateContent (attempt 1)`,
/// `<- 503 UNAVAILABLE in 12 ms`, `retry 1/2 in 0.8s after 503 UNAVAILABLE`.
///
/// A response is named by its status code and the google.rpc status the API pairs with it; a
/// retry after an error response names that response, a retry after a failure with no
/// response (a timeout, a reset, an error inside a stream) gives the failure's text.
final class VerboseLog: Sendable {
    /// The status of the last response seen per call label, while it was an error.
    private let lastErrorStatus = Mutex<[String: Int]>([:])

    /// The line for `event`, or `nil` for none.
    func line(for event: GeminiClientEvent) -> String? {
        switch event {
        case .requestSent(let label, let method, let path, let attempt):
            lastErrorStatus.withLock { $0[label] = nil }
            return "-> \(method) \(path) (attempt \(attempt))"
        case .responseReceived(let label, let status, _, let milliseconds):
            lastErrorStatus.withLock { $0[label] = status == 200 ? nil : status }
            return "<- \(Self.statusText(status)) in \(milliseconds) ms"
        case .retrying(let label, let retry, let of, let wait, let reason):
            let status = lastErrorStatus.withLock { $0[label] }
            let cause = status.map(Self.statusText) ?? reason
            return "retry \(retry)/\(of) in \(Self.seconds(wait)) after \(cause)"
        case .fallback(_, let from, let to):
            return "model \(from) answered 404; retrying on the fallback \(to)"
        case .toolRound:
            return nil
        }
    }

    /// `503 UNAVAILABLE`: the code and the google.rpc status the Gemini API sends with it
    /// (source: the Gemini API's
    /// troubleshooting guide, which pairs each code with its google.rpc status); the code alone when there is no usual one.
    static func statusText(_ status: Int) -> String {
        let names = [
            200: "OK", 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
            404: "NOT_FOUND", 408: "REQUEST_TIMEOUT", 409: "ABORTED", 429: "RESOURCE_EXHAUSTED",
            499: "CANCELLED", 500: "INTERNAL", 501: "UNIMPLEMENTED", 502: "BAD_GATEWAY",
            503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
        ]
        return names[status].map { "\(status) \($0)" } ?? "\(status)"
    }

    /// `0.8s`, `2s`, `12.5s`.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))s" : "\(rounded)s"
    }
}

/// Counts the retries of the call in flight and notes the model a 404 fell back to (from the
/// client's events; a stream has no result that says so).
final class RetryCounter: Sendable {
    private let count = Mutex(0)
    private let fallback = Mutex<String?>(nil)

    /// Starts a new call.
    func reset() {
        count.withLock { $0 = 0 }
        fallback.withLock { $0 = nil }
    }

    /// One more retry.
    func add() { count.withLock { $0 += 1 } }

    /// The call switched to the fallback model `model`.
    func fellBack(to model: String) { fallback.withLock { $0 = model } }

    /// Retries so far.
    var value: Int { count.withLock { $0 } }

    /// The fallback model that took over the call, if one did.
    var fallbackModel: String? { fallback.withLock { $0 } }
}
