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
    /// The most inline media bytes one request may carry (default ``GeminiInlineLimit/bytes``,
    /// the API's 20 MB inline limit).
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
    /// The clock the whole-call limit (``callTimeout``) runs on: each call's deadline starts
    /// at its `now`, and its timer ends the streams (and, over a transport that does not honour
    /// deadlines, the calls) that outlast the limit. The default is the real clock
    /// (``GeminiSystemDeadlineClock``); a test injects a clock it moves itself, so a limit
    /// passes without a real wait. Separate from ``sleep`` and ``now``, the clock of the waits
    /// between attempts. ``URLSessionTransport`` watches the deadlines it is handed on the
    /// real clock.
    public var deadlineClock: any GeminiDeadlineClock = GeminiSystemDeadlineClock()
    /// Receives request, response and retry events (for a `--verbose` display).
    public var observer: (@Sendable (GeminiClientEvent) -> Void)?
    /// Re-encodes image parts smaller on a retry after a transport failure when the policy
    /// downscales (``GeminiMediaDownscale``); `nil` (the default) sends media unchanged. The
    /// `SophonMedia` target's `MediaImageDownscaler` is the codec the shell injects.
    public var imageDownscaler: (any GeminiImageDownscaler)? = nil
    /// The API calls go to: the Developer API (the default) or Vertex AI (docs/vertex.md).
    /// On Vertex AI the Developer API's host in ``baseURL`` stands for Vertex AI's host
    /// (``GeminiBackend/defaultBaseURL``); any other base URL (a proxy, a fake) is kept.
    public var backend: GeminiBackend = .developer
    /// OAuth access tokens (Application Default Credentials) sent as `Authorization: Bearer`
    /// instead of the API key; `nil` sends the key (the Developer API, Vertex AI express mode).
    public var accessTokens: GoogleAccessTokens? = nil
    /// The service tier calls ask for (`standard`, `flex`, `priority`, lowercase; `nil`: the
    /// server's default). On Vertex AI it is asked in headers (docs/commands.md, "tier":
    /// `X-Vertex-AI-LLM-Request-Type: shared` and `X-Vertex-AI-LLM-Shared-Request-Type:
    /// flex|priority`); on the Developer API set ``GenerateContentRequest/serviceTier`` too (the
    /// body carries it there). `flex` makes every call's retry policy
    /// ``GeminiRetryPolicy/forFlex`` (best effort, minutes of latency, sheddable); give it
    /// long timeouts.
    public var serviceTier: String? = nil

    /// Whether calls go to the Flex tier: ``serviceTier`` is `flex` (setting `false` clears a
    /// `flex` tier).
    public var flexTier: Bool {
        get { serviceTier?.lowercased() == "flex" }
        set {
            if newValue {
                serviceTier = "flex"
            } else if flexTier {
                serviceTier = nil
            }
        }
    }

    /// The base URL requests go to: ``baseURL``, or on Vertex AI its host when ``baseURL`` is
    /// the Developer API's default.
    var serviceBaseURL: URL {
        guard backend.isVertex, baseURL.host == "generativelanguage.googleapis.com" else { return baseURL }
        return backend.defaultBaseURL
    }

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
        maxInlineMediaBytes: Int = GeminiInlineLimit.bytes,
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

/// What one attempt of a call should send: the builder of ``GeminiAPIClient/send(_:label:model:retryPolicy:allowPartial:buildRequest:)``
/// gets one per attempt.
public struct GeminiRequestVariant: Sendable, Hashable {
    /// The model ID to call (without `models/`).
    public var modelID: String
    /// Whether media should be re-encoded smaller (set after a transport failure when the
    /// policy downscales). The client re-encodes the image parts of generate requests itself
    /// when its configuration has an ``GeminiClientConfiguration/imageDownscaler``.
    public var compressMedia: Bool
    /// How many transport failures asked for smaller media so far: 0 originals, 1 images at
    /// most 1536 px, 2 or more at most 768 px (``GeminiMediaDownscale/longestSide(step:)``).
    public var downscaleStep: Int = 0
    /// The attempt number on this model, from 1.
    public var attempt: Int
    /// Whether this is the fallback call after a 404.
    public var isFallback: Bool

    /// Creates a variant.
    public init(modelID: String, compressMedia: Bool = false, attempt: Int = 1, isFallback: Bool = false) {
        self.modelID = modelID
        self.compressMedia = compressMedia
        self.attempt = attempt
        self.isFallback = isFallback
    }
}

/// The outcome of a successful call: the value and what it cost.
public struct GeminiResult<Value: Sendable>: Sendable {
    /// The decoded value (or the text, or the raw response).
    public var value: Value
    /// The final response.
    public var response: GenerateContentResponse
    /// The model that answered (the fallback after a 404).
    public var modelID: String
    /// Retries made (attempts minus one; the 404 fallback call not counted).
    public var retryCount: Int
    /// Whether the 404 fallback was used.
    public var usedFallback: Bool
    /// What lenient decoding changed to make the reply fit (empty when nothing), one line each:
    /// `$.year: string "2021" read as number 2021`. The same changes, as records, are
    /// ``coercionDetails``; what was changed in the reply text itself is ``repairs``.
    public var coercions: [String]
    /// The changes of ``coercions`` as records (path, the value the model wrote, what it was
    /// read as), in the same order (docs/library.md, "What a result lists").
    public var coercionDetails: [GeminiCoercion] = []
    /// What the extractor changed in the reply text to find the JSON value, in text order:
    /// the fence or prose it took the value from, a removed trailing comma, a closed string or
    /// bracket of a truncated reply (SophonCore's `JSONRepair`: `kind`, `offset`,
    /// `description`). Empty for text answers.
    public var repairs: [JSONRepair] = []

    /// The token usage of the final response.
    public var usage: UsageMetadata? { response.usageMetadata }

    /// The finish reason of the first candidate.
    public var finishReason: FinishReason? { response.finishReason }
}

/// Events for a verbose display: requests sent, responses received and retry decisions.
public enum GeminiClientEvent: Sendable, Hashable {
    /// A request went out: method, path (no query, never the key), attempt on this model.
    case requestSent(label: String, method: String, path: String, attempt: Int)
    /// A response arrived: status, status text and the time since the request was sent.
    case responseReceived(label: String, status: Int, statusText: String, milliseconds: Int)
    /// The call will retry: retry `retry` of at most `of`, after `wait`, because of `reason`.
    case retrying(label: String, retry: Int, of: Int, wait: Duration, reason: String)
    /// The call switches to the fallback model after a 404.
    case fallback(label: String, from: String, to: String)
    /// One round of automatic function calling ended (docs/library.md, "Tools"): round `round`
    /// (1-based: one model request) returned `calls` (empty for the final answer) and used
    /// `usage` (that request's tokens, not the sum; `nil` when the reply had none). Reported
    /// by ``GeminiAPIClient/generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)-(_,_,[Part],_,_,_,_,_,_,_)``
    /// before the round's calls run.
    case toolRound(label: String, round: Int, calls: [FunctionCall], usage: UsageMetadata?)
}
