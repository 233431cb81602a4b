/// How a bulk run paces itself (docs/running-many-prompts.md).
public struct BulkRunOptions: Sendable, Hashable {
    /// Calls in flight at most (at least 1).
    public var jobs: Int
    /// Requests per sliding 60 s window; `nil` for no client-side limit.
    public var requestsPerMinute: Int?
    /// Tokens per sliding 60 s window (estimated as request bytes / 4 before a call, corrected
    /// from the reply's `totalTokenCount`); `nil` for no limit.
    public var tokensPerMinute: Int?
    /// The retry policy for failures other than 429: its `attempts` and backoff apply per key.
    public var retryPolicy: GeminiRetryPolicy
    /// How many 429 answers one key may meet before it fails with `rateLimited`.
    public var maxRateLimitRetries: Int
    /// The wait after a 429 that carried no server wait.
    public var defaultRateLimitWait: Duration
    /// Calls an earlier run of the same job started (a killed run's last minute): those of the
    /// last 60 s fill the limiter's window from the start. Empty by default.
    public var recentSends: [BulkSend] = []

    /// Creates options; defaults: 8 jobs, no limits, the default retry policy, 20 retries per
    /// key after 429, 1 s wait when the server gives none.
    public init(
        jobs: Int = 8, requestsPerMinute: Int? = nil, tokensPerMinute: Int? = nil,
        retryPolicy: GeminiRetryPolicy = .default, maxRateLimitRetries: Int = 20,
        defaultRateLimitWait: Duration = .seconds(1)
    ) {
        self.jobs = max(1, jobs)
        self.requestsPerMinute = requestsPerMinute
        self.tokensPerMinute = tokensPerMinute
        self.retryPolicy = retryPolicy
        self.maxRateLimitRetries = maxRateLimitRetries
        self.defaultRateLimitWait = defaultRateLimitWait
    }

    /// The rule for a key's 429s, as ``RetryDecision`` reads it: ``maxRateLimitRetries`` retries,
    /// each after the server's wait (no cap) or else ``defaultRateLimitWait`` (no jitter).
    var rateLimitPolicy: GeminiRetryPolicy {
        GeminiRetryPolicy(
            attempts: maxRateLimitRetries + 1, baseDelay: defaultRateLimitWait,
            maxDelay: defaultRateLimitWait,
            jitter: 0, honoursServerWait: true, maxServerWait: .seconds(Int64.max), fallbackOn404: false,
            downscale: false)
    }
}
