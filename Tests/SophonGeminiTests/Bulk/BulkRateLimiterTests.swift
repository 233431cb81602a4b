import Foundation
import SophonGemini
import Testing

/// A resumed run's limiter starts with the last minute's sends (docs/running-many-prompts.md).
@Suite struct BulkRateLimiterTests {
    @Test func sendsOfTheLastMinuteStartInTheWindowOlderOnesDoNot() async throws {
        let now = Date()
        let sends = [-1.0, -30, -59, -61, -3600].map {
            BulkSend(time: now.addingTimeInterval($0), tokens: 10)
        }
        let limiter = BulkRateLimiter(
            jobs: 4, requestsPerMinute: 10, tokensPerMinute: nil, recentSends: sends)
        #expect(await limiter.callsInWindow == 3)
        _ = try await limiter.acquire(tokens: 1)
        #expect(await limiter.callsInWindow == 4)
        let fresh = BulkRateLimiter(jobs: 4, requestsPerMinute: 10, tokensPerMinute: nil)
        #expect(await fresh.callsInWindow == 0)
    }
}
