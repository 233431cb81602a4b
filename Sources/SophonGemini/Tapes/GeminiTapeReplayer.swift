import Foundation
import SophonCore
import Synchronization

/// A transport that answers from a tape, in order, without a network (docs/tapes.md), so a replay runs the real client code: retries, fallback, stream parsing.
///
/// Each request must match the next recorded exchange by method, path (see
/// ``GeminiTapeRequest/path(of:baseURL:)``) and body compared as JSON values (member order and
/// number spelling do not matter); headers are not compared. A mismatch throws
/// ``GeminiTapeError/mismatch(_:)`` and consumes the exchange, so the requests after it are
/// compared with the exchanges after it and the rest of the replay stays aligned; a request after the last
/// exchange throws ``GeminiTapeError/exhausted(request:method:path:)``. Neither is a
/// ``GeminiError``, so the client never retries them.
///
/// Responses come back as recorded: JSON bodies pretty-printed with two spaces, events as one
/// `data: <compact JSON>\r\n\r\n` chunk each (then the trailer and a cut event), a recorded
/// transport failure as the same ``GeminiError/transport(_:detail:)``, a recorded cancellation
/// as `CancellationError`. Use ``GeminiClientConfiguration/replayingTape(skippedWait:)`` for
/// the client's configuration: no key needed, no retry waits.
public final class GeminiTapeReplayer: GeminiTransport {
    /// The key a replaying client sends; never checked, and never a real key.
    public static let placeholderAPIKey = "sophon-tape-replay"

    /// A sleep for ``GeminiClientConfiguration/sleep`` that returns at once (throwing only when
    /// the task is cancelled): replays skip retry waits.
    public static let noSleep: @Sendable (Duration) async throws -> Void = { _ in try Task.checkCancellation()
    }

    /// The tape being replayed.
    public let tape: GeminiTape

    private let baseURL: URL?
    private let cursor = Mutex(Cursor())
    private let nextToolCall = Mutex(0)

    /// The next recorded tool call (`{"name", "args", "server", "result" | "error"}`), in call
    /// order; `nil` when the tape has no more (docs/tapes.md).
    public func takeToolCall() -> JSONValue? {
        nextToolCall.withLock { index in
            guard index < tape.toolCalls.count else { return nil }
            defer { index += 1 }
            return tape.toolCalls[index]
        }
    }

    /// Creates a replayer for a loaded tape.
    /// - Parameters:
    ///   - tape: the exchanges to answer with.
    ///   - baseURL: the client's base URL; its path prefix is stripped before paths are compared.
    public init(tape: GeminiTape, baseURL: URL? = nil) {
        self.tape = tape
        self.baseURL = baseURL
    }

    /// Loads the tape at `url`, reporting each tolerated problem (a cut last line) to `warning`.
    /// - Throws: the errors of ``GeminiTape/init(contentsOf:)``.
    public convenience init(
        contentsOf url: URL, baseURL: URL? = nil, warning: (@Sendable (String) -> Void)? = nil
    ) throws(GeminiTapeError) {
        let tape = try GeminiTape(contentsOf: url)
        for message in tape.warnings { warning?(message) }
        self.init(tape: tape, baseURL: baseURL)
    }

    /// Whether the requests of the current task (and its child tasks) were sent concurrently,
    /// so their order is not the recorded one: each takes the first unused exchange whose
    /// request equals it, else the next unused one (and fails with its difference).
    /// ``GeminiAPIClient/bulkRun(_:options:label:onSend:onResult:)`` sets it for its calls (docs/tapes.md,
    /// "Replaying a run"); everything else replays strictly in order.
    @TaskLocal public static var matchesConcurrentRequests = false

    /// Which exchanges are used: all before `next`, and those in `usedAhead`.
    private struct Cursor {
        var next = 0
        var usedAhead: Set<Int> = []
        var count: Int { next + usedAhead.count }

        /// Marks `index` used and moves `next` past every used exchange.
        mutating func use(_ index: Int) {
            if index == next { next += 1 } else { usedAhead.insert(index) }
            while usedAhead.remove(next) != nil { next += 1 }
        }
    }

    /// The recorded request the next request must match, without using it up; `nil` after the
    /// last exchange. A replaying caller reads what was sent then (e.g. the tools a plugin
    /// served while recording, docs/tapes.md).
    public var upcomingRequest: GeminiTapeRequest? {
        let index = cursor.withLock { $0.next }
        return index < tape.exchanges.count ? tape.exchanges[index].request : nil
    }

    /// How many requests have been answered.
    public var answeredCount: Int { cursor.withLock { $0.count } }

    /// How many recorded exchanges have not been used yet.
    public var remainingCount: Int { tape.exchanges.count - answeredCount }

    /// Answers `request` with the next recorded exchange.
    /// - Throws: ``GeminiTapeError/mismatch(_:)``, ``GeminiTapeError/exhausted(request:method:path:)``,
    ///   the recorded ``GeminiError/transport(_:detail:)``, or `CancellationError` (the task is
    ///   cancelled, or the recorded request was).
    public func send(_ request: GeminiHTTPRequest) async throws -> GeminiHTTPResponse {
        try Task.checkCancellation()
        let path = GeminiTapeRequest.path(of: request.url, baseURL: baseURL)
        let sent = GeminiTapeRequest(
            method: request.method, path: path, body: GeminiTapeBody.requestValue(of: request.body))
        let exchanges = tape.exchanges
        let concurrent = Self.matchesConcurrentRequests
        let exchange = try cursor.withLock { cursor throws(GeminiTapeError) -> GeminiTapeExchange in
            let request = cursor.count + 1
            guard cursor.next < exchanges.count else {
                throw .exhausted(request: request, method: sent.method, path: sent.path)
            }
            if concurrent,
                let index = (cursor.next..<exchanges.count).first(where: {
                    !cursor.usedAhead.contains($0)
                        && Self.mismatch(recorded: exchanges[$0], sent: sent, request: request) == nil
                })
            {
                cursor.use(index)
                return exchanges[index]
            }
            let exchange = exchanges[cursor.next]
            cursor.use(cursor.next)
            if let mismatch = Self.mismatch(recorded: exchange, sent: sent, request: request) {
                throw .mismatch(mismatch)
            }
            return exchange
        }
        return try Self.response(replaying: exchange.response, streaming: request.streaming)
    }

    /// The first difference between the recorded request and the one sent: method, path, body.
    static func mismatch(
        recorded exchange: GeminiTapeExchange, sent: GeminiTapeRequest, request: Int
    ) -> GeminiTapeMismatch? {
        let recorded = exchange.request
        if recorded.method.uppercased() != sent.method.uppercased() {
            return GeminiTapeMismatch(
                request: request, line: exchange.line, field: .method, recorded: recorded.method,
                got: sent.method)
        }
        if recorded.path != sent.path {
            return GeminiTapeMismatch(
                request: request, line: exchange.line, field: .path, recorded: recorded.path, got: sent.path)
        }
        guard let difference = JSONValueDifference.first(recorded: recorded.body, got: sent.body) else {
            return nil
        }
        return GeminiTapeMismatch(
            request: request, line: exchange.line, field: .body, jsonPath: difference.path.description,
            recorded: JSONValueDifference.display(difference.recorded),
            got: JSONValueDifference.display(difference.got))
    }

    /// The HTTP response a recorded response replays as.
    static func response(replaying recorded: GeminiTapeResponse, streaming: Bool) throws -> GeminiHTTPResponse
    {
        guard let status = recorded.status else {
            throw (recorded.failure ?? .transport(.other, detail: "")).replayError
        }
        var headers = recorded.headers
        var isEventStream = false
        switch recorded.payload {
        case .events:
            isEventStream = true
            if headers["content-type"] == nil { headers["content-type"] = "text/event-stream" }
        case .body(.object), .body(.array):
            if headers["content-type"] == nil { headers["content-type"] = "application/json; charset=UTF-8" }
        default:
            break
        }
        let chunks = GeminiTapeBody.chunks(of: recorded.payload)
        guard streaming || isEventStream || recorded.failure != nil else {
            return GeminiHTTPResponse(status: status, headers: headers, body: .data(Data(chunks.joined())))
        }
        let failure = recorded.failure
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish(throwing: failure?.replayError)
        }
        return GeminiHTTPResponse(status: status, headers: headers, body: .stream(stream))
    }
}

extension GeminiClientConfiguration {
    /// This configuration adapted to a run answered by a ``GeminiTapeReplayer`` (docs/tapes.md,
    /// "Replaying": no key needed, retry waits skipped, replays deterministic).
    ///
    /// The key provider returns ``GeminiTapeReplayer/placeholderAPIKey`` (no real key is handed
    /// to the transport), the sleep before a retry returns at once after passing the wait to
    /// `skippedWait` (for a `--verbose` log line), and the jitter source is fixed at 0 so the
    /// waits reported are the same on every replay. Everything else is kept.
    /// - Parameter skippedWait: receives each retry wait that was skipped.
    /// - Returns: the adapted configuration.
    public func replayingTape(skippedWait: (@Sendable (Duration) -> Void)? = nil) -> GeminiClientConfiguration
    {
        var configuration = self
        configuration.apiKeyProvider = { GeminiTapeReplayer.placeholderAPIKey }
        configuration.sleep = { wait in
            skippedWait?(wait)
            try await GeminiTapeReplayer.noSleep(wait)
        }
        configuration.random = { 0 }
        return configuration
    }
}
