import Foundation
import Testing

@testable import SophonGemini

/// The backoff formula, presets and server-wait parsing of docs/library.md.
@Suite struct RetryPolicyTests {
    @Test(arguments: [
        (GeminiRetryPolicy.default, 1, 0.0, Duration.milliseconds(800)),
        (.default, 1, 0.5, .milliseconds(880)),
        (.default, 2, 0.5, .milliseconds(1760)),
        (.default, 3, 0.5, .milliseconds(3520)),
        (.default, 4, 0.5, .seconds(6)),
        (.default, 4, 0.0, .milliseconds(6000)),
        (.default, 3, 0.999, .milliseconds(3839)),
        (.default, 100, 0.5, .seconds(6)),
        (.minimal, 1, 0.7, .seconds(1)),
        (.minimal, 2, 0.7, .seconds(2)),
        (.minimal, 3, 0.7, .seconds(4)),
        (.minimal, 4, 0.7, .seconds(6)),
    ])
    func computedWait(policy: GeminiRetryPolicy, retry: Int, random: Double, expected: Duration) {
        #expect(policy.computedWait(beforeRetry: retry, random: random) == expected)
    }

    @Test func presetsMatchTheTable() {
        let standard = GeminiRetryPolicy.default
        #expect(standard.attempts == 3)
        #expect(standard.jitter == 0.2)
        #expect(standard.honoursServerWait && standard.fallbackOn404 && standard.downscale)
        #expect(standard.maxServerWait == .seconds(60))
        let minimal = GeminiRetryPolicy.minimal
        #expect(minimal.attempts == 3 && minimal.baseDelay == .seconds(1) && minimal.maxDelay == .seconds(6))
        #expect(
            minimal.jitter == 0 && !minimal.honoursServerWait && !minimal.fallbackOn404 && !minimal.downscale)
    }

    @Test func retryAfterHeaderForms() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2015-10-21T07:27:00Z"))
        #expect(ServerWait.retryAfter("120", now: now) == .seconds(120))
        #expect(ServerWait.retryAfter(" 1.5 ", now: now) == .milliseconds(1500))
        #expect(ServerWait.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(60))
        #expect(ServerWait.retryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(ServerWait.retryAfter("soon", now: now) == nil)
        #expect(ServerWait.retryAfter("-3", now: now) == nil)
        // Far-off waits are capped, never dropped: dropping one would retry before it is over.
        #expect(ServerWait.retryAfter("99999999999", now: now) == .seconds(1_000_000_000))
        #expect(ServerWait.retryAfter("Wed, 21 Oct 2099 07:28:00 GMT", now: now) == .seconds(1_000_000_000))
    }

    @Test func headerWinsOverRetryInfo() {
        let status = GoogleRPCStatus(
            code: 429,
            details: [
                GoogleRPCErrorDetail(type: "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "26s")
            ])
        #expect(ServerWait.wait(headers: ["retry-after": "3"], status: status) == .seconds(3))
        #expect(ServerWait.wait(headers: [:], status: status) == .seconds(26))
        #expect(ServerWait.wait(headers: [:], status: nil) == nil)
    }
}
