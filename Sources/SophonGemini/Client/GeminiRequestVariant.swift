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
    /// What lenient decoding changed to make the reply fit (empty when nothing).
    public var coercions: [String]

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
    /// by ``GeminiAPIClient/generateWithTools(label:conversation:prompt:handlers:model:systemInstruction:generationConfig:toolConfig:maxToolRounds:retryPolicy:)``
    /// before the round's calls run.
    case toolRound(label: String, round: Int, calls: [FunctionCall], usage: UsageMetadata?)
}
