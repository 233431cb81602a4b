import Foundation
import Synchronization

extension GeminiAPIClient {
    /// Streams a reply (`models/{id}:streamGenerateContent?alt=sse`): each element is one chunk
    /// (a complete ``GenerateContentResponse`` whose parts hold the delta), delivered as it
    /// arrives.
    ///
    /// Retries (and the 404 fallback) happen only before the first chunk. The stream throws
    /// ``GeminiError/streamEndedEarly(partialText:)`` when it ends without a finish reason
    /// (``GeminiError/emptyResponse`` when its chunks held no part at all, as unstreamed),
    /// ``GeminiError/contentBlocked(reason:partialText:)`` after a chunk whose finish reason
    /// is a block, ``GeminiError/promptBlocked(reason:message:)`` for a blocked prompt, and the
    /// typed error of a JSON error sent after the 200 (raw or as a `data:` event), and
    /// ``GeminiError/transport(_:detail:)`` (`.timedOut`) when the whole stream, retries
    /// included, outlasts ``GeminiClientConfiguration/callTimeout``. Cancelling the consuming
    /// task (or dropping the stream) cancels the request.
    /// - Parameters:
    ///   - label: a short name for logs and events.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    ///   - retryPolicy: overrides the configured policy for this call.
    ///   - request: the request body.
    public func streamGenerateContent(
        label: String, model: GeminiModel? = nil, retryPolicy: GeminiRetryPolicy? = nil,
        request: GenerateContentRequest
    ) -> AsyncThrowingStream<GenerateContentResponse, any Error> {
        deadlinedStream { continuation in
            try await self.runStream(
                label: label, model: model, retryPolicy: retryPolicy, request: request,
                continuation: continuation)
        }
    }

    /// A stream fed by `run` in its own task under the whole-call limit (on the configuration's
    /// deadline clock, from the stream's creation): when the limit passes the task is cancelled
    /// and the stream ends with the limit's error; dropping the stream cancels the task. Every
    /// streaming request kind runs through here.
    func deadlinedStream<Element: Sendable>(
        _ run: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let deadline = GeminiCallDeadline(
            limit: configuration.callTimeout, start: configuration.deadlineClock.now)
        let expired = StreamExpiry()
        let task = Task {
            do {
                try await run(continuation)
                continuation.finish()
            } catch {
                if expired.hasExpired {
                    continuation.finish(throwing: deadline.error)
                } else {
                    continuation.finish(afterFeedingFailed: error)
                }
            }
        }
        // The whole-call limit: when it passes, the stream's task is cancelled and the stream
        // ends with the limit's error instead of the cancellation.
        let token = streamDeadlines.watch(until: deadline.instant) {
            expired.expire()
            task.cancel()
        }
        continuation.onTermination = { [streamDeadlines] _ in
            streamDeadlines.unwatch(token)
            task.cancel()
        }
        return stream
    }

    /// The stream's call on the one call path: its deadline is the stream's own watch, so the
    /// path runs no timer; retries happen only before the first chunk.
    private func runStream(
        label: String, model: GeminiModel?, retryPolicy: GeminiRetryPolicy?, request: GenerateContentRequest,
        continuation: AsyncThrowingStream<GenerateContentResponse, any Error>.Continuation
    ) async throws {
        let request = configuration.backend.request(request)
        let body = try OrderedJSONEncoder().encodeData(request)
        var call = GeminiAPICall<Void>(
            label: label, method: "POST", namesModel: true, model: model,
            endpoint: { .streamGenerateContent(model: $0) },
            body: { variant in
                guard variant.downscaleStep > 0, self.configuration.imageDownscaler != nil else {
                    return body
                }
                return try OrderedJSONEncoder().encodeData(self.downscaled(request, for: variant))
            }
        ) { http, variant in
            guard http.status == 200 else {
                let data = try await Self.collectBody(of: http)
                throw GeminiStatusClassifier.classify(
                    status: http.status, headers: http.headers, body: data, modelID: variant.modelID)
            }
            var reader = StreamReader(continuation: continuation)
            try await Self.read(http.body, into: &reader)
        }
        call.streaming = true
        call.ownsDeadline = false
        call.asksForTier = true
        _ = try await perform(call, retryPolicy: retryPolicy)
    }
}

/// What turns a streamed reply's bytes into what its consumer sees (generateContent's chunks,
/// the Interactions API's events), and knows whether a cut may still be retried.
protocol GeminiStreamBodyReader {
    /// Reads the next bytes of the body.
    mutating func consume(_ data: Data) throws
    /// Reads what is left at the end of the body; throws when the stream ended early.
    mutating func finish() throws
    /// Whether a cut now may be retried without the consumer seeing an event twice.
    var mayRetry: Bool { get }
}

extension GeminiAPIClient {
    /// The one pump of a streamed 200 reply: every chunk of `body` to `reader`, then its end; a
    /// transport error mid-body is retried only while `reader` allows it.
    static func read<Reader: GeminiStreamBodyReader>(
        _ body: GeminiHTTPBody, into reader: inout Reader
    ) async throws {
        guard case .stream(let bytes) = body else {
            if case .data(let data) = body { try reader.consume(data) }
            try reader.finish()
            return
        }
        do {
            for try await chunk in bytes { try reader.consume(chunk) }
        } catch let error as GeminiError {
            throw AttemptError(error, allowRetry: reader.mayRetry)
        }
        try reader.finish()
    }
}

/// Turns SSE bytes into chunks for the consumer, tracking what a retry decision needs.
struct StreamReader: GeminiStreamBodyReader {
    let continuation: AsyncThrowingStream<GenerateContentResponse, any Error>.Continuation
    var parser = SSEParser()
    var delivered = false
    var finishReason: FinishReason?
    var partialText = ""
    /// Whether a delivered chunk held a part (text, thought, call, media, signature).
    var deliveredPart = false
    /// The last chunk delivered.
    var lastChunk: GenerateContentResponse?

    /// Whether a cut may still be retried: nothing was delivered yet.
    var mayRetry: Bool { !delivered }

    init(continuation: AsyncThrowingStream<GenerateContentResponse, any Error>.Continuation) {
        self.continuation = continuation
    }

    mutating func consume(_ data: Data) throws {
        for item in parser.feed(data) { try handle(item) }
    }

    mutating func finish() throws {
        for item in parser.finish() { try handle(item) }
        guard finishReason != nil else {
            if !deliveredPart, let lastChunk {
                // Replies that all held no part (`{"candidates": []}`): nothing was cut, the
                // server answered nothing. The last is read by the one check of a complete
                // reply, so the stream fails as the same reply unstreamed does (`emptyResponse`).
                do {
                    try ReplyCheck.check(lastChunk)
                } catch let error as GeminiError {
                    throw AttemptError(error, allowRetry: false)
                }
            }
            throw AttemptError(.streamEndedEarly(partialText: partialText), allowRetry: !delivered)
        }
    }

    private mutating func handle(_ item: SSEParser.Item) throws {
        switch item {
        case .event(let text):
            // Data that is only blanks carries no chunk: a keep-alive, like an empty event.
            if text.allSatisfy(\.isWhitespace) { return }
            let data = Data(text.utf8)
            if let status = GoogleRPCErrorBody.parse(data) { throw failure(status, data) }
            guard
                let chunk = FastResponseDecoding.decode(data)
                    ?? (try? JSONDecoder().decode(GenerateContentResponse.self, from: data))
            else {
                throw AttemptError(
                    .transport(
                        .badResponse, detail: "Undecodable stream event: \(ReplyExcerpt.excerpt(data))"),
                    allowRetry: !delivered)
            }
            try deliver(chunk)
        case .raw(let text):
            let data = Data(text.utf8)
            if let status = GoogleRPCErrorBody.parse(data) { throw failure(status, data) }
            if let replies = Self.plainReplies(data) {
                for reply in replies { try deliver(reply) }
                return
            }
            throw AttemptError(
                .transport(.badResponse, detail: "Unexpected stream text: \(ReplyExcerpt.excerpt(data))"),
                allowRetry: !delivered)
        case .truncated:
            throw AttemptError(.streamEndedEarly(partialText: partialText), allowRetry: !delivered)
        }
    }

    /// The replies of a body that is plain JSON rather than events (a server or proxy that
    /// answered with one reply, or with the JSON array `streamGenerateContent` sends without
    /// `alt=sse`), read as chunks; `nil` when it holds anything else.
    static func plainReplies(_ data: Data) -> [GenerateContentResponse]? {
        let decoder = JSONDecoder()
        let replies =
            (try? decoder.decode([GenerateContentResponse].self, from: data))
            ?? (try? decoder.decode(GenerateContentResponse.self, from: data)).map { [$0] }
        func isReply(_ reply: GenerateContentResponse) -> Bool {
            reply.candidates != nil || reply.promptFeedback != nil || reply.usageMetadata != nil
        }
        guard let replies, !replies.isEmpty, replies.allSatisfy(isReply) else { return nil }
        return replies
    }

    private mutating func deliver(_ chunk: GenerateContentResponse) throws {
        if let feedback = chunk.promptFeedback, let reason = feedback.blockReason {
            throw AttemptError(
                .promptBlocked(reason: reason, message: feedback.blockReasonMessage), allowRetry: false)
        }
        continuation.yield(chunk)
        delivered = true
        partialText += chunk.text
        lastChunk = chunk
        if chunk.candidates?.first?.content?.parts?.isEmpty == false { deliveredPart = true }
        guard let reason = chunk.candidates?.compactMap(\.finishReason).first else { return }
        finishReason = reason
        if reason.isBlocked {
            throw AttemptError(.contentBlocked(reason: reason, partialText: partialText), allowRetry: false)
        }
    }

    private func failure(_ status: GoogleRPCStatus, _ data: Data) -> AttemptError {
        var error = GeminiStatusClassifier.classify(
            status: status.code ?? 500, headers: [:], body: data, modelID: nil, rpc: status)
        error.allowRetry = error.allowRetry && !delivered
        return error
    }
}

/// Whether a stream's whole-call limit has passed (set by the deadline watch, read by the
/// stream's task).
final class StreamExpiry: Sendable {
    private let expired = Atomic(false)

    /// Marks the limit as passed.
    func expire() { expired.store(true, ordering: .releasing) }

    /// Whether the limit has passed.
    var hasExpired: Bool { expired.load(ordering: .acquiring) }
}

/// Folds streamed chunks into the whole reply: text and thoughts concatenated, the last
/// non-nil usage (counts are running totals; the last chunk may carry only usage), the finish
/// reason and message of the chunk that had them.
public struct GeminiStreamAccumulator: Sendable, Hashable {
    /// The answer text so far (thought parts excluded).
    public private(set) var text = ""
    /// The thought text so far.
    public private(set) var thoughtText = ""
    /// The last non-nil usage.
    public private(set) var usage: UsageMetadata?
    /// The finish reason, once a chunk carried one.
    public private(set) var finishReason: FinishReason?
    /// The finish message, once a chunk carried one.
    public private(set) var finishMessage: String?
    /// The last model version seen.
    public private(set) var modelVersion: String?
    /// Chunks added.
    public private(set) var chunkCount = 0

    /// Creates an empty accumulator.
    public init() {}

    /// The reply so far as one response: the answer text as one part (none when empty), the
    /// finish reason and message, the last usage and model version. What
    /// ``GeminiAnswerReader/read(_:)->GeminiAnswer`` checks, so a streamed reply fails as the same reply
    /// unstreamed does (`MAX_TOKENS` with no text is ``GeminiError/truncated(partialText:partialValue:)``).
    public var response: GenerateContentResponse {
        let parts = text.isEmpty ? [] : [Part.text(text)]
        return GenerateContentResponse(
            candidates: [
                Candidate(
                    content: Content(role: "model", parts: parts), finishReason: finishReason,
                    finishMessage: finishMessage)
            ], usageMetadata: usage, modelVersion: modelVersion)
    }

    /// Adds the next chunk.
    public mutating func add(_ chunk: GenerateContentResponse) {
        chunkCount += 1
        text += chunk.text
        thoughtText += chunk.thoughtText
        if let chunkUsage = chunk.usageMetadata { usage = chunkUsage }
        if let version = chunk.modelVersion { modelVersion = version }
        if let candidate = chunk.candidates?.first {
            if let reason = candidate.finishReason { finishReason = reason }
            if let message = candidate.finishMessage { finishMessage = message }
        }
    }
}

extension AsyncThrowingStream.Continuation where Failure == any Error {
    /// Ends a stream whose feeding task (cancelled by `onTermination` when the consumer goes
    /// away) failed with `error`: quietly when that task was cancelled, else with `error`. The
    /// stream calls `onTermination` before it ends itself, so the feeding task may get here
    /// first; ending with the cancellation's error would then reach a cancelled consumer's
    /// `for try await`, which must simply end. Every task-fed stream of the library ends here
    /// (requests' streams, `bulkRun`, the tape recorder's tee).
    func finish(afterFeedingFailed error: any Error) {
        if Task.isCancelled { finish() } else { finish(throwing: error) }
    }
}
