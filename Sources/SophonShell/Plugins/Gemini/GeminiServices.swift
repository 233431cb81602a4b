import Foundation
import SophonCore
import SophonGemini
import Synchronization

/// The Gemini side of one `sophon` run: the client (made on first use, so runs that never call
/// the API never start URLSession), the transport (live, recording or replaying a tape), the
/// key lookup and the `--verbose` log (PRODUCT.md §4, §5 "Gemini commands", "Tapes").
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
    let baseURL: URL
    private let transport: any GeminiTransport
    private let client = Mutex<GeminiAPIClient?>(nil)
    /// Retries of the call in flight, counted from the client's events.
    let retriesInFlight = RetryCounter()

    /// Sets up the transport; opens the tape to replay or creates the one to record.
    /// - Throws: ``StartError`` for a bad `SOPHON_GEMINI_BASE_URL` or an unusable tape.
    init(options: Options, io: ShellIO) throws(StartError) {
        self.options = options
        self.io = io
        paths = SophonPaths(environment: options.environment)
        baseURL = try Self.baseURL(from: options.environment["SOPHON_GEMINI_BASE_URL"])
        let output = io
        do {
            if let replay = options.replayTape {
                transport = try GeminiTapeReplayer(
                    contentsOf: URL(fileURLWithPath: replay), baseURL: baseURL,
                    warning: { output.printError("warning: \(replay): \($0)") })
            } else if let record = options.recordTape {
                transport = try GeminiTapeRecorder(
                    wrapping: URLSessionTransport(), tapeURL: URL(fileURLWithPath: record), baseURL: baseURL,
                    secrets: [], warning: { output.printError("warning: \(record): \($0)") })
            } else {
                transport = URLSessionTransport()
            }
        } catch {
            throw StartError(message: "\(error)")
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

    /// Whether calls are answered from a tape (no key needed).
    var isReplaying: Bool { options.replayTape != nil }

    /// The key calls use, and where it came from; `nil` when none is set.
    /// - Throws: ``CommandFailure`` (`insecureKeyFile`, `keyStoreError`) when the key file is
    ///   readable by others or corrupt.
    func apiKey() throws -> SecretLookup? {
        do {
            return try SophonKeychain(environment: options.environment).load()
        } catch {
            throw CommandFailure(kind: "keyStoreError", message: "\(error)")
        }
    }

    /// The client, made on first use.
    func makeClient(session: ShellSession) -> GeminiAPIClient {
        client.withLock { existing in
            if let existing { return existing }
            let made = GeminiAPIClient(configuration: configuration(session: session), transport: transport)
            existing = made
            return made
        }
    }

    private func configuration(session: ShellSession) -> GeminiClientConfiguration {
        let environment = options.environment
        let output = io
        let verbose = options.verbose
        let retries = retriesInFlight
        var configuration = GeminiClientConfiguration(
            keychainAccount: SophonKeychain.geminiAccount,
            defaultModel: GeminiModel(id: GeminiModel.shellDefaultModelID),
            fallbackModel: GeminiModel(id: GeminiModel.shellFallbackModelID),
            availableModels: GeminiModel.allPresets,
            baseURL: baseURL,
            callTimeout: session.settings.timeout,
            modelStore: JSONFileGeminiModelStore(fileURL: paths.settingsFile),
            apiKeyProvider: { (try? SophonKeychain(environment: environment).load())?.secret },
            observer: { event in
                if case .retrying = event { retries.add() }
                if verbose, let line = VerboseLog.line(for: event) { output.printError(line) }
            })
        if isReplaying {
            configuration = configuration.replayingTape(skippedWait: { wait in
                if verbose { output.printError("(replay: skipped a \(DurationParser.format(wait)) wait)") }
            })
        }
        return configuration
    }
}

/// The `--verbose` lines (PRODUCT.md §5): `-> POST /v1beta/models/M:generateContent (attempt 1)`,
/// `<- 503 UNAVAILABLE in 12 ms`, `retry 1/2 in 0.8s after 503 UNAVAILABLE`.
enum VerboseLog {
    static func line(for event: GeminiClientEvent) -> String? {
        switch event {
        case .requestSent(_, let method, let path, let attempt):
            return "-> \(method) \(path) (attempt \(attempt))"
        case .responseReceived(_, let status, let statusText, let milliseconds):
            let text = statusText.isEmpty ? "" : " \(statusText)"
            return "<- \(status)\(text) in \(milliseconds) ms"
        case .retrying(_, let retry, let of, let wait, let reason):
            return "retry \(retry)/\(of) in \(seconds(wait)) after \(reason)"
        case .fallback(_, let from, let to):
            return "model \(from) answered 404; retrying on the fallback \(to)"
        }
    }

    /// `0.8s`, `2s`, `12.5s`.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))s" : "\(rounded)s"
    }
}

/// Counts the retries of the call in flight (from the client's events).
final class RetryCounter: Sendable {
    private let count = Mutex(0)

    /// Starts a new call.
    func reset() { count.withLock { $0 = 0 } }

    /// One more retry.
    func add() { count.withLock { $0 += 1 } }

    /// Retries so far.
    var value: Int { count.withLock { $0 } }
}
