import Foundation
import SophonTestSupport
import Testing

@testable import SophonGemini

/// Task cancellation stops a call at once, sleeping or in flight.
@Suite(.childSlots) struct CancellationTests {
    @Test func cancellingDuringTheRetryWaitStopsTheCall() async throws {
        let transport = ScriptedTransport([
            .json(503, #"{"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}"#),
            .json(
                200, #"{"candidates": [{"content": {"parts": [{"text": "late"}]}, "finishReason": "STOP"}]}"#),
        ])
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        var configuration = GeminiClientConfiguration.testing(recorder: SleepRecorder())
        configuration.sleep = { duration in
            startedContinuation.yield()
            try await Task.sleep(for: .seconds(600))
        }
        let client = GeminiAPIClient(configuration: configuration, transport: transport)
        let task = Task { try await client.generateText(label: "t", contents: [.user("hi")]) }
        for await _ in started { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test func cancellingInFlightStopsTheRequest() async throws {
        let server = try await FakeGeminiServer(replies: [#"{"fault": "stall", "seconds": 15}"#])
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let task = Task { try await client.generateText(label: "t", contents: [.user("hi")]) }
        try await server.waitForRequests()
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        #expect(try await server.paths().count == 1)
    }

    @Test func cancellingAStreamConsumerStopsTheStream() async throws {
        let server = try await FakeGeminiServer(replies: [#"{"fault": "stall", "seconds": 15}"#])
        let client = GeminiAPIClient(
            configuration: .testing(recorder: SleepRecorder(), baseURL: server.baseURL))
        let task = Task {
            var count = 0
            for try await _ in client.streamGenerateContent(
                label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
            {
                count += 1
            }
            return count
        }
        try await server.waitForRequests()
        task.cancel()
        // A cancelled consumer's `for try await` simply ends: no chunk, no error, no 15 s wait.
        #expect(try await task.value == 0)
    }

    @Test func aCancelledConsumerNeverSeesTheCancellationAsAnError() async throws {
        // The stream calls `onTermination` (which cancels the request's task) before it ends
        // itself, so the request's task may end the stream first; that ending must not be an
        // error. 200 rounds make the race likely (one in a few dozen rounds before the fix
        // under load, `CancellationError` out of `for try await`).
        let partial = #"{"candidates": [{"content": {"parts": [{"text": "par"}]}}]}"#
        for _ in 0..<200 {
            let transport = ScriptedTransport([.hangingStream(["data: \(partial)\r\n\r\n"])])
            let client = GeminiAPIClient(
                configuration: .testing(recorder: SleepRecorder()), transport: transport)
            let (arrived, arrival) = AsyncStream<Void>.makeStream()
            let consumer = Task {
                var count = 0
                for try await _ in client.streamGenerateContent(
                    label: "s", request: GenerateContentRequest(contents: [.user("hi")]))
                {
                    count += 1
                    arrival.yield()
                }
                return count
            }
            for await _ in arrived { break }
            consumer.cancel()
            #expect(try await consumer.value == 1)
        }
    }
}
