import Foundation
import SophonCore

/// Turns the SSE bytes of a streamed Interaction into events for the consumer, and keeps what
/// a resume needs: the interaction's id and the last `event_id` (docs/interactions.md).
/// `data: [DONE]` ends the stream; a stream that ends before `interaction.completed` is
/// ``GeminiError/streamEndedEarly(partialText:)``, retryable (as a resume) when the id and an
/// event id are known, else only when nothing was delivered.
struct GeminiInteractionStreamReader: GeminiStreamBodyReader {
    let continuation: AsyncThrowingStream<GeminiInteractionEvent, any Error>.Continuation
    /// The id and last event id, shared with the call's resume route.
    let position: LockedBox<GeminiInteractionStreamPosition>
    var parser = SSEParser()
    var delivered = false
    var completed = false

    /// Whether a failure now may be retried: by resuming, or by starting again when nothing
    /// reached the consumer.
    var mayRetry: Bool { position.get().canResume || !delivered }

    mutating func consume(_ data: Data) throws {
        for item in parser.feed(data) { try handle(item) }
    }

    mutating func finish() throws {
        for item in parser.finish() { try handle(item) }
        guard completed else {
            throw AttemptError(
                .streamEndedEarly(partialText: position.get().partialText), allowRetry: mayRetry)
        }
    }

    private mutating func handle(_ item: SSEParser.Item) throws {
        switch item {
        case .event(let text):
            if text.allSatisfy(\.isWhitespace) || text == "[DONE]" { return }
            guard let value = try? JSONValue(parsing: text) else {
                throw AttemptError(
                    .transport(
                        .badResponse,
                        detail: "Undecodable stream event: \(ReplyExcerpt.excerpt(Data(text.utf8)))"),
                    allowRetry: mayRetry)
            }
            if value["event_type"] == nil, value["error"] != nil {
                var failure = GeminiInteractionErrorBody.classify(
                    status: 500, headers: [:], body: Data(text.utf8))
                failure.allowRetry = failure.allowRetry && mayRetry
                throw failure
            }
            try deliver(GeminiInteractionEvent(json: value))
        case .raw(let text):
            let data = Data(text.utf8)
            if GeminiInteractionErrorBody.parse(data) != nil || GoogleRPCErrorBody.parse(data) != nil {
                var failure = GeminiInteractionErrorBody.classify(status: 500, headers: [:], body: data)
                failure.allowRetry = failure.allowRetry && mayRetry
                throw failure
            }
            throw AttemptError(
                .transport(.badResponse, detail: "Unexpected stream text: \(ReplyExcerpt.excerpt(data))"),
                allowRetry: mayRetry)
        case .truncated:
            throw AttemptError(
                .streamEndedEarly(partialText: position.get().partialText), allowRetry: mayRetry)
        }
    }

    private mutating func deliver(_ event: GeminiInteractionEvent) throws {
        if let error = event.error {
            var failure = GeminiInteractionErrorBody.classify(event: error)
            failure.allowRetry = failure.allowRetry && mayRetry
            throw failure
        }
        var position = self.position.get()
        if event.type == "interaction.created", let id = event.json["interaction"]?["id"]?.stringValue {
            position.id = id
        }
        if let eventID = event.eventID { position.lastEventID = eventID }
        position.partialText += event.textDelta ?? ""
        self.position.set(position)
        if event.type == "interaction.completed" { completed = true }
        continuation.yield(event)
        delivered = true
    }
}

/// Where a streamed Interaction stands: its id, the last event id and the text so far.
struct GeminiInteractionStreamPosition: Sendable {
    var id: String?
    var lastEventID: String?
    var partialText = ""
    /// Whether the API keeps the interaction (`store` not false), so it can be resumed.
    var stored = true

    /// Whether a cut stream can resume: the id and an event id are known and it is stored.
    var canResume: Bool { stored && id != nil && lastEventID != nil }
}
