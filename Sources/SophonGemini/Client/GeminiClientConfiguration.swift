import Foundation
import SophonCore

/// Everything a ``GeminiAPIClient`` needs: key source, models, endpoint, timeouts, retry
/// policy, limits, logging and the model-selection store.
///
/// Library defaults: default and fallback model ``GeminiModel/gemini31FlashLite`` (free tier),
/// base URL `https://generativelanguage.googleapis.com`, request timeout 120 s, whole-call
/// timeout 180 s, ``GeminiRetryPolicy/default``.
public struct GeminiClientConfiguration: Sendable {
    /// The key-store account holding the API key (the shell uses `gemini`).
    public var keychainAccount: String
    /// The model used when the store holds no selection.
    public var defaultModel: GeminiModel
    /// The model a 404 falls back to, and the store is reset to.
    public var fallbackModel: GeminiModel
    /// The models this app offers.
    public var availableModels: [GeminiModel]
    /// `scheme://host[:port][/prefix]`; a trailing `/v1beta` is tolerated.
    public var baseURL: URL
    /// Idle timeout of one HTTP request.
    public var requestTimeout: Duration
    /// Limit of one whole call, retries and waits included.
    public var callTimeout: Duration
    /// The retry policy of calls that do not override it.
    public var retryPolicy: GeminiRetryPolicy
    /// The most media parts one request may carry.
    public var maxMediaParts: Int
    /// The most inline media bytes one request may carry (20 MB, the API's inline limit).
    public var maxInlineMediaBytes: Int
    /// Receives log lines (SophonCore's handler type; the key is masked in them); `nil` logs
    /// nothing.
    public var logHandler: LogHandler?
    /// Persists the selected model ID.
    public var modelStore: any GeminiModelStore
    /// Supplies the API key for each call; `nil` or empty means no key. By default it reads
    /// `keychainAccount` through SophonCore's `SophonKeychain` (environment variables first).
    public var apiKeyProvider: @Sendable () -> String?
    /// Sleeps before a retry; injectable so tests never wait. Throws on cancellation.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Returns `u` in [0, 1) for backoff jitter.
    public var random: @Sendable () -> Double
    /// The current instant of the clock `sleep` waits on (a bulk run's rate limiter reads it);
    /// injectable with `sleep` so tests move time without waiting.
    public var now: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// Receives request, response and retry events (for a `--verbose` display).
    public var observer: (@Sendable (GeminiClientEvent) -> Void)?
    /// Re-encodes image parts smaller on a retry after a transport failure when the policy
    /// downscales (``GeminiMediaDownscale``); `nil` (the default) sends media unchanged. The
    /// `SophonMedia` target's `MediaImageDownscaler` is the codec the shell injects.
    public var imageDownscaler: (any GeminiImageDownscaler)? = nil

    /// Creates a configuration; every parameter has the library default.
    public init(
        keychainAccount: String = "gemini",
        defaultModel: GeminiModel = .defaultModel,
        fallbackModel: GeminiModel = .defaultFallback,
        availableModels: [GeminiModel] = GeminiModel.allPresets,
        baseURL: URL = URL(string: "https://generativelanguage.googleapis.com")!,
        requestTimeout: Duration = .seconds(120),
        callTimeout: Duration = .seconds(180),
        retryPolicy: GeminiRetryPolicy = .default,
        maxMediaParts: Int = 16,
        maxInlineMediaBytes: Int = 20 * 1024 * 1024,
        logHandler: LogHandler? = nil,
        modelStore: any GeminiModelStore = InMemoryGeminiModelStore(),
        apiKeyProvider: (@Sendable () -> String?)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        observer: (@Sendable (GeminiClientEvent) -> Void)? = nil
    ) {
        self.keychainAccount = keychainAccount
        self.defaultModel = defaultModel
        self.fallbackModel = fallbackModel
        self.availableModels = availableModels
        self.baseURL = baseURL
        self.requestTimeout = requestTimeout
        self.callTimeout = callTimeout
        self.retryPolicy = retryPolicy
        self.maxMediaParts = maxMediaParts
        self.maxInlineMediaBytes = maxInlineMediaBytes
        self.logHandler = logHandler
        self.modelStore = modelStore
        self.apiKeyProvider = apiKeyProvider ?? Self.keychainKeyProvider(account: keychainAccount)
        self.sleep = sleep
        self.random = random
        self.now = now
        self.observer = observer
    }
}
