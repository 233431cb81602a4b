import Foundation
import Testing

@testable import SophonGemini

/// The server-requested wait at its edges (PRODUCT §3, `GeminiRetryPolicy`): honoured up to
/// `maxServerWait` inclusive, a fail-fast past it, ignored (no fail-fast) when the policy does
/// not honour it, and a per-day quota never retried either way.
@Suite struct RetryDecisionTests {
    static let limited = GeminiError.http(
        status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "slow down", details: [])

    static func decide(
        wait: Duration?, policy: GeminiRetryPolicy, error: GeminiError = limited, attempt: Int = 1
    ) -> RetryDecision {
        RetryDecision.after(
            AttemptError(error, serverWait: wait), attempt: attempt, of: policy.attempts, policy: policy,
            timeLeft: nil, random: { 0.5 })
    }

    @Test func aServerWaitOfExactlyTheLimitIsHonoured() {
        #expect(Self.decide(wait: .seconds(60), policy: .default) == .retry(wait: .seconds(60)))
    }

    @Test func aServerWaitPastTheLimitFailsAtOnceWithTheWait() {
        #expect(
            Self.decide(wait: .milliseconds(60_001), policy: .default)
                == .fail(
                    .rateLimited(
                        retryAfter: .milliseconds(60_001),
                        server: GeminiServerStatus(
                            status: 429, apiStatus: "RESOURCE_EXHAUSTED", message: "slow down"))))
    }

    @Test func anIgnoredServerWaitLeavesTheComputedWaitAndNoFailFast() {
        // .minimal: 1 s base, no jitter; retry-after=off on .default: 0.8 s * (1 + 0.2 * 0.5).
        #expect(Self.decide(wait: .seconds(120), policy: .minimal) == .retry(wait: .seconds(1)))
        var off = GeminiRetryPolicy.default
        off.honoursServerWait = false
        #expect(Self.decide(wait: .seconds(120), policy: off) == .retry(wait: .milliseconds(880)))
        #expect(
            Self.decide(wait: .seconds(120), policy: off, attempt: 2) == .retry(wait: .milliseconds(1760)))
    }

    @Test(arguments: [GeminiRetryPolicy.default, .minimal])
    func aPerDayQuotaIsNeverRetried(policy: GeminiRetryPolicy) {
        let perDay = GeminiError.quotaExhausted(
            quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier", message: "quota")
        #expect(Self.decide(wait: .seconds(26), policy: policy, error: perDay) == .fail(perDay))
    }
}
