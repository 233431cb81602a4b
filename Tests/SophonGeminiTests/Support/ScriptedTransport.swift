import Foundation
import Synchronization

@testable import SophonGemini

/// A transport answering from a script, recording every request. Test support only.
final class ScriptedTransport: GeminiTransport {
    /// One scripted answer.
    enum Reply: Sendable {
        case json(Int, String, headers: [String: String] = [:])
        case stream([String])
        case failure(GeminiError)
        /// Throws ``GeminiCallDeadline/Exceeded`` for the request's deadline.
        case deadlinePassed
        /// A stream that sends `pieces` and then never ends (until it is cancelled).
        case hangingStream([String])
        /// A whole body with these headers, as data even for a streaming request.
        case body(Int, [String: String], String)
        /// A streamed body in these pieces, ending normally or with `failure`.
        case chunks(Int, [String: String], [String], failure: GeminiError? = nil)
        /// A streamed body the test feeds and ends itself.
        case source(Int, [String: String], AsyncThrowingStream<Data, any Error>)
    }

    private let replies: Mutex<[Reply]>
    private let seen = Mutex<[GeminiHTTPRequest]>([])
    let honoursDeadline: Bool

    init(_ replies: [Reply], honoursDeadline: Bool = false) {
        self.replies = Mutex(replies)
        self.honoursDeadline = honoursDeadline
    }

    var requests: [GeminiHTTPRequest] { seen.withLock { $0 } }

    func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        seen.withLock { $0.append(request) }
        let reply = replies.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch reply {
        case .none:
            return GeminiHTTPResponse(status: 500, headers: [:], body: .data(Data("script exhausted".utf8)))
        case .json(let status, let text, let headers):
            let data = Data(text.utf8)
            let body: GeminiHTTPBody =
                request.streaming
                ? .stream(
                    AsyncThrowingStream {
                        $0.yield(data); $0.finish()
                    }) : .data(data)
            return GeminiHTTPResponse(status: status, headers: headers, body: body)
        case .stream(let pieces):
            let stream = AsyncThrowingStream<Data, any Error> { continuation in
                for piece in pieces { continuation.yield(Data(piece.utf8)) }
                continuation.finish()
            }
            return GeminiHTTPResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        case .failure(let error):
            throw error
        case .hangingStream(let pieces):
            let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            for piece in pieces { continuation.yield(Data(piece.utf8)) }
            return GeminiHTTPResponse(
                status: 200, headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        case .body(let status, let headers, let text):
            return GeminiHTTPResponse(status: status, headers: headers, body: .data(Data(text.utf8)))
        case .chunks(let status, let headers, let pieces, let failure):
            let stream = AsyncThrowingStream<Data, any Error> { continuation in
                for piece in pieces { continuation.yield(Data(piece.utf8)) }
                continuation.finish(throwing: failure)
            }
            return GeminiHTTPResponse(status: status, headers: headers, body: .stream(stream))
        case .source(let status, let headers, let stream):
            return GeminiHTTPResponse(status: status, headers: headers, body: .stream(stream))
        case .deadlinePassed:
            throw GeminiCallDeadline.Exceeded(deadline: request.deadline ?? GeminiCallDeadline(limit: .zero))
        }
    }
}

/// Collects the waits handed to the injected sleep; never sleeps, but moves its own clock
/// (``now``, frozen otherwise) on by each wait, so a rate limiter reading it sees the time pass.
final class SleepRecorder: Sendable {
    private let waits = Mutex<[Duration]>([])
    private let start = ContinuousClock.now

    var recorded: [Duration] { waits.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] duration in
            waits.withLock { $0.append(duration) }
            try Task.checkCancellation()
        }
    }

    /// The instant this recorder was made plus every wait recorded so far.
    var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in start + waits.withLock { $0.reduce(.zero, +) } }
    }
}

extension GeminiClientConfiguration {
    /// A test configuration: fixed key, random source 0.5, recorded sleeps.
    static func testing(
        key: String? = "test-key", policy: GeminiRetryPolicy = .default, recorder: SleepRecorder,
        store: any GeminiModelStore = InMemoryGeminiModelStore(),
        baseURL: URL = URL(string: "http://127.0.0.1:9")!,
        requestTimeout: Duration = .seconds(300)
    ) -> GeminiClientConfiguration {
        GeminiClientConfiguration(
            defaultModel: .gemini38Flash, fallbackModel: .gemini35FlashLite, baseURL: baseURL,
            requestTimeout: requestTimeout, callTimeout: .seconds(600), retryPolicy: policy,
            modelStore: store,
            apiKeyProvider: { key }, sleep: recorder.sleep, random: { 0.5 }, now: recorder.now)
    }
}
