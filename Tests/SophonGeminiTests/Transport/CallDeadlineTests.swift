import Foundation
import Synchronization
import Testing

@testable import SophonGemini

/// The whole-call limit as a deadline carried by requests, for transports that honour it.
struct CallDeadlineTests {
    static let okBody = #"{"candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]}"#

    func client(_ transport: ScriptedTransport, callTimeout: Duration = .seconds(60)) -> (
        GeminiAPIClient, SleepRecorder
    ) {
        let recorder = SleepRecorder()
        var configuration = GeminiClientConfiguration.testing(recorder: recorder)
        configuration.callTimeout = callTimeout
        return (GeminiAPIClient(configuration: configuration, transport: transport), recorder)
    }

    @Test func unaryRequestsCarryTheDeadlineOnlyForATransportThatHonoursIt() async throws {
        let honouring = ScriptedTransport([.json(200, Self.okBody)], honoursDeadline: true)
        let before = ContinuousClock.now
        _ = try await client(honouring).0.generateText(label: "t", contents: [.user("hi")])
        let deadline = try #require(honouring.requests.first?.deadline)
        #expect(deadline.limit == .seconds(60))
        #expect(deadline.instant >= before.advanced(by: .seconds(60)))
        #expect(deadline.instant <= ContinuousClock.now.advanced(by: .seconds(60)))

        let plain = ScriptedTransport([.json(200, Self.okBody)])
        _ = try await client(plain).0.generateText(label: "t", contents: [.user("hi")])
        #expect(plain.requests.count == 1)
        #expect(plain.requests.first?.deadline == nil)
    }

    @Test func streamsCarryNoDeadline() async throws {
        let transport = ScriptedTransport([.stream(["data: \(Self.okBody)\r\n\r\n"])], honoursDeadline: true)
        var texts: [String] = []
        // A whole-call limit far past any load: this test is about the request's deadline
        // field, and a 60 s limit timed out once on a machine busy with other builds.
        for try await chunk in client(transport, callTimeout: .seconds(3600)).0.streamGenerateContent(
            label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
        {
            texts.append(chunk.text)
        }
        #expect(texts == ["ok"])
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.deadline == nil)
    }

    @Test func aPassedDeadlineIsATimeoutAndIsNotRetried() async throws {
        let transport = ScriptedTransport([.deadlinePassed, .json(200, Self.okBody)], honoursDeadline: true)
        let (client, recorder) = client(transport)
        await #expect(
            throws: GeminiError.transport(.timedOut, detail: "The call exceeded its limit of 60 s.")
        ) {
            _ = try await client.generateText(label: "t", contents: [.user("hi")])
        }
        #expect(transport.requests.count == 1)
        #expect(recorder.recorded.isEmpty)
    }

    @Test(arguments: [true, false])
    func aServerWaitLongerThanTheTimeLeftFailsAtOnceWithTheWait(honoursDeadline: Bool) async throws {
        let transport = ScriptedTransport(
            [.json(503, "{}", headers: ["retry-after": "59"]), .json(200, Self.okBody)],
            honoursDeadline: honoursDeadline)
        let (client, recorder) = client(transport, callTimeout: .seconds(50))
        let said = GeminiServerStatus(status: 503, apiStatus: nil, message: "{}")
        await #expect(throws: GeminiError.rateLimited(retryAfter: .seconds(59), server: said)) {
            _ = try await client.generateText(label: "t", contents: [.user("hi")])
        }
        #expect(transport.requests.count == 1)
        #expect(recorder.recorded.isEmpty)
    }

    @Test func aComputedWaitLongerThanTheTimeLeftFailsAtOnceWithTheError() async throws {
        let overloaded =
            #"{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}"#
        let transport = ScriptedTransport(
            [.json(503, overloaded), .json(200, Self.okBody)], honoursDeadline: true)
        // The default policy's first computed wait (random source 0.5) is about 0.9 s.
        let (client, recorder) = client(transport, callTimeout: .milliseconds(500))
        do {
            _ = try await client.generateText(label: "t", contents: [.user("hi")])
            Issue.record("the call succeeded")
        } catch let error as GeminiError {
            guard case .http(let status, let apiStatus, let message, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(status == 503 && apiStatus == "UNAVAILABLE" && message == "The model is overloaded.")
        }
        #expect(transport.requests.count == 1)
        #expect(recorder.recorded.isEmpty)
    }

    @Test func aRetryWaitWithinTheLimitIsUnchanged() async throws {
        let transport = ScriptedTransport(
            [.json(503, "{}", headers: ["retry-after": "3"]), .json(200, Self.okBody)], honoursDeadline: true)
        let (client, recorder) = client(transport, callTimeout: .seconds(50))
        let result = try await client.generateText(label: "t", contents: [.user("hi")])
        #expect(result.value == "ok")
        #expect(recorder.recorded == [.seconds(3)])
        #expect(transport.requests.count == 2)
    }
}

/// The whole-call limit on streams, for any transport, on a clock the test moves.
struct StreamDeadlineTests {
    /// One SSE event carrying `text` and no finish reason.
    static func event(_ text: String) -> Data {
        Data("data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\(text)\"}]}}]}\r\n\r\n".utf8)
    }

    @Test func aStreamThatOutlastsTheLimitEndsWithTheLimitsError() async throws {
        let (body, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let transport = ScriptedTransport([.source(200, ["Content-Type": "text/event-stream"], body)])
        let clock = ManualDeadlineClock()
        var configuration = GeminiClientConfiguration.testing(recorder: SleepRecorder())
        configuration.callTimeout = .seconds(20)
        configuration.deadlineClock = clock
        let client = GeminiAPIClient(configuration: configuration, transport: transport)
        let limit = clock.start + .seconds(20)
        let (texts, failure) = try await withWatchdog { () -> ([String], GeminiError?) in
            var chunks = client.streamGenerateContent(
                label: "s", request: GenerateContentRequest(contents: [.user("hi")])
            ).makeAsyncIterator()
            // The stream's limit is watched from its creation, on the configuration's clock.
            #expect(clock.scheduled == [limit])
            var texts: [String] = []
            feed.yield(Self.event("par"))
            try await texts.append(chunks.next()?.text ?? "(ended)")
            clock.advance(by: .seconds(20) - .milliseconds(1))
            // Not yet: the timer still waits, and the stream still delivers.
            #expect(clock.scheduled == [limit])
            feed.yield(Self.event("tial"))
            try await texts.append(chunks.next()?.text ?? "(ended)")
            clock.advance(by: .milliseconds(1))
            #expect(clock.scheduled.isEmpty)
            do {
                while let chunk = try await chunks.next() { texts.append(chunk.text) }
                return (texts, nil)
            } catch let error as GeminiError {
                return (texts, error)
            }
        }
        #expect(texts == ["par", "tial"])
        #expect(failure == GeminiError.transport(.timedOut, detail: "The call exceeded its limit of 20 s."))
        #expect(transport.requests.count == 1)
        feed.finish()
    }
}

/// The whole-call limit on unary calls over a transport that does not honour deadlines: a
/// timer task beside the call, sleeping on the configuration's clock (here one the test moves).
struct UnaryCallDeadlineTests {
    /// A client whose transport sends a 200 and then the body the test feeds through `feed`.
    static func client(clock: ManualDeadlineClock) -> (
        GeminiAPIClient, ScriptedTransport, AsyncThrowingStream<Data, any Error>.Continuation
    ) {
        let (body, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let transport = ScriptedTransport([.source(200, [:], body)])
        var configuration = GeminiClientConfiguration.testing(recorder: SleepRecorder())
        configuration.callTimeout = .seconds(20)
        configuration.deadlineClock = clock
        return (GeminiAPIClient(configuration: configuration, transport: transport), transport, feed)
    }

    @Test func aCallThatOutlastsTheLimitEndsWithTheLimitsError() async throws {
        let clock = ManualDeadlineClock()
        let (client, transport, feed) = Self.client(clock: clock)
        let limit = clock.start + .seconds(20)
        let (sleeping, stillSleeping, failure) = try await withWatchdog {
            () -> ([ContinuousClock.Instant], [ContinuousClock.Instant], GeminiError?) in
            async let call = client.generateText(label: "t", contents: [.user("hi")])
            await clock.waitForSleepers(1)
            let sleeping = clock.sleeping
            clock.advance(by: .seconds(20) - .milliseconds(1))
            let stillSleeping = clock.sleeping
            clock.advance(by: .milliseconds(1))
            do {
                _ = try await call
                return (sleeping, stillSleeping, nil)
            } catch let error as GeminiError {
                return (sleeping, stillSleeping, error)
            }
        }
        #expect(sleeping == [limit])
        #expect(stillSleeping == [limit])
        #expect(failure == GeminiError.transport(.timedOut, detail: "The call exceeded its limit of 20 s."))
        #expect(clock.sleeping.isEmpty)
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.deadline == nil)
        feed.finish()
    }

    @Test func aReplyJustBeforeTheLimitIsKept() async throws {
        let clock = ManualDeadlineClock()
        let (client, _, feed) = Self.client(clock: clock)
        let text = try await withWatchdog { () -> String in
            async let call = client.generateText(label: "t", contents: [.user("hi")])
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(20) - .milliseconds(1))
            feed.yield(Data(CallDeadlineTests.okBody.utf8))
            feed.finish()
            return try await call.value
        }
        #expect(text == "ok")
        // The timer task was cancelled with the call's end, not left waiting for the limit.
        #expect(clock.sleeping.isEmpty)
    }
}

/// Runs `body` in a task that a watchdog cancels after 120 s: a bound that catches a hang (a
/// limit that never fires), not a timing check.
func withWatchdog<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let task = Task { try await body() }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(120))
        task.cancel()
    }
    defer { watchdog.cancel() }
    return try await task.value
}

/// The names of the actions a ``DeadlineWatch`` ran, in order.
final class FiredLog: Sendable {
    private let names = Mutex<[String]>([])

    var all: [String] { names.withLock { $0 } }

    func action(_ name: String) -> @Sendable () -> Void { { self.names.withLock { $0.append(name) } } }

    /// Waits (at most 60 s: a bound that catches a hang, not a timing check) until `count`
    /// actions ran.
    func waitFor(_ count: Int) async throws -> [String] {
        let limit = ContinuousClock.now.advanced(by: .seconds(60))
        while all.count < count, ContinuousClock.now < limit { try await Task.sleep(for: .milliseconds(5)) }
        return all
    }
}

/// The one-timer watch over in-flight deadlines.
struct DeadlineWatchTests {
    @Test func expiredEntriesFireInDeadlineOrderAndUnwatchedOnesNever() {
        let clock = ManualDeadlineClock()
        let watch = DeadlineWatch(clock: clock)
        let fired = FiredLog()
        let start = clock.start
        _ = watch.watch(until: start + .milliseconds(150), expire: fired.action("c"))
        let b = watch.watch(until: start + .milliseconds(100), expire: fired.action("b"))
        _ = watch.watch(until: start + .milliseconds(50), expire: fired.action("a"))
        // One timer, armed for the earliest deadline.
        #expect(clock.scheduled == [start + .milliseconds(50)])
        watch.unwatch(b)
        clock.advance(by: .milliseconds(50))
        #expect(fired.all == ["a"])
        // Re-armed for the next deadline still watched (b's was unwatched).
        #expect(clock.scheduled == [start + .milliseconds(150)])
        clock.advance(by: .milliseconds(99))
        #expect(fired.all == ["a"])
        clock.advance(by: .milliseconds(1))
        #expect(fired.all == ["a", "c"])
        #expect(clock.scheduled.isEmpty)
        clock.advance(by: .seconds(3600))
        #expect(fired.all == ["a", "c"])
    }

    /// The real clock's Dispatch timer.
    @Test func anEarlierDeadlineReArmsTheTimer() async throws {
        let watch = DeadlineWatch()
        let fired = FiredLog()
        let now = ContinuousClock.now
        let late = watch.watch(until: now.advanced(by: .seconds(3600)), expire: fired.action("late"))
        _ = watch.watch(until: now.advanced(by: .milliseconds(20)), expire: fired.action("soon"))
        #expect(try await fired.waitFor(1) == ["soon"])
        watch.unwatch(late)
    }
}
