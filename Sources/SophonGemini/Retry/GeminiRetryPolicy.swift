import Foundation

/// How a call retries, per docs/library.md.
///
/// |                       | ``default``                        | ``minimal``           |
/// |-----------------------|------------------------------------|-----------------------|
/// | attempts              | 3                                  | 3                     |
/// | backoff               | 0.8 s base, 6 s cap, 20% jitter    | 1 s base, 6 s cap, no jitter |
/// | server-requested wait | honoured up to 60 s                | ignored               |
/// | 404 (retired model)   | retries the call on the fallback   | fails the call        |
/// | transport failure     | re-encodes media smaller           | no re-encode          |
///
/// Wait before retry n (n = 1, 2, ...): `min(cap, base * 2^(n-1)) * (1 + jitter * u)`, capped
/// again at `cap`, with `u` in [0, 1) from the client's random source. A server-requested wait
/// (`Retry-After`, or `RetryInfo.retryDelay`), when honoured, replaces it; beyond
/// `maxServerWait` the call fails at once with ``GeminiError/rateLimited(retryAfter:server:)``.
public struct GeminiRetryPolicy: Sendable, Hashable {
    /// Every attempt counts, the first included (1 = no retry). The one 404 fallback call does
    /// not count.
    public var attempts: Int
    /// The backoff base (the wait before the first retry without jitter).
    public var baseDelay: Duration
    /// The backoff cap.
    public var maxDelay: Duration
    /// Jitter fraction (0.2 = up to 20% longer); 0 for none.
    public var jitter: Double
    /// Whether a server-requested wait replaces the computed one.
    public var honoursServerWait: Bool
    /// The longest server-requested wait honoured; longer fails at once.
    public var maxServerWait: Duration
    /// Whether a 404 for the model retries the call once on the fallback model.
    public var fallbackOn404: Bool
    /// Whether a transport failure asks the next attempt for smaller media
    /// (``GeminiRequestVariant/compressMedia``).
    public var downscale: Bool

    /// Creates a policy; see the table for the presets' values.
    public init(
        attempts: Int, baseDelay: Duration, maxDelay: Duration, jitter: Double,
        honoursServerWait: Bool, maxServerWait: Duration = .seconds(60), fallbackOn404: Bool,
        downscale: Bool
    ) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.honoursServerWait = honoursServerWait
        self.maxServerWait = maxServerWait
        self.fallbackOn404 = fallbackOn404
        self.downscale = downscale
    }

    /// 3 attempts, 0.8 s base, 6 s cap, 20% jitter, server wait honoured up to 60 s, 404
    /// fallback, downscale on transport failure.
    public static let `default` = GeminiRetryPolicy(
        attempts: 3, baseDelay: .milliseconds(800), maxDelay: .seconds(6), jitter: 0.2,
        honoursServerWait: true, fallbackOn404: true, downscale: true)

    /// This policy for the Flex tier, whose requests the server may shed (503 UNAVAILABLE or
    /// 429) when it has no spare capacity: at least 5 attempts and a backoff cap of at least
    /// 60 s, the rest unchanged (the retry loop and `RetryDecision` as for every call).
    public var forFlex: GeminiRetryPolicy {
        var policy = self
        policy.attempts = max(attempts, 5)
        policy.maxDelay = max(maxDelay, .seconds(60))
        return policy
    }

    /// 3 attempts, 1 s base, 6 s cap, no jitter, server wait ignored, no fallback, no downscale.
    public static let minimal = GeminiRetryPolicy(
        attempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(6), jitter: 0,
        honoursServerWait: false, fallbackOn404: false, downscale: false)

    /// The computed wait before retry `retry` (1-based), rounded to whole milliseconds.
    /// - Parameters:
    ///   - retry: 1 for the wait after the first attempt; values below 1 count as 1.
    ///   - random: `u` in [0, 1); clamped into that range.
    public func computedWait(beforeRetry retry: Int, random: Double) -> Duration {
        let base = GeminiRetryPolicy.seconds(baseDelay)
        let cap = GeminiRetryPolicy.seconds(maxDelay)
        let exponent = Double(min(max(retry, 1) - 1, 62))
        let unit = random.isFinite ? min(max(random, 0), 1) : 0
        let grown = min(cap, base * pow(2, exponent))
        let wait = min(cap, grown * (1 + max(jitter, 0) * unit))
        let milliseconds = (wait * 1000).rounded()
        guard milliseconds.isFinite, milliseconds > 0 else { return .zero }
        return .milliseconds(Int64(min(milliseconds, 9.2e15)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
