import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Creates a Batch job with inline requests: the same call as
    /// ``createBatch(displayName:model:requests:)``, with the requests as
    /// ``GeminiBatchRequest`` values and the model defaulting to ``selectedModelID``.
    /// - Parameters:
    ///   - displayName: the job's display name (journal it first: a lost answer is not retried).
    ///   - requests: the requests, each under its key.
    ///   - model: the model; `nil` uses ``selectedModelID``.
    /// - Returns: the job as created (usually `PENDING`).
    /// - Throws: ``GeminiError`` (a 429 on create is `rateLimited`), or `CancellationError`.
    public func createBatch(
        displayName: String, requests: [GeminiBatchRequest], model: GeminiModel? = nil
    ) async throws -> GeminiBatch {
        try await createBatch(
            displayName: displayName, model: model,
            requests: requests.map { (key: $0.key, request: $0.request) })
    }

    /// Waits until a Batch job ends (``GeminiBatchState/isTerminal``: succeeded, failed,
    /// cancelled or expired) and returns it, asking ``getBatch(_:)`` at once, then after 1 s,
    /// 2 s, 4 s ... at most `maxInterval` apart, through the client's one poller (the same as
    /// ``waitUntilActive(_:timeout:retryPolicy:)-(String,_,_)``; each look is retried as any call).
    /// - Parameters:
    ///   - name: the job, `batches/ID`.
    ///   - timeout: the longest wait (default 48 h, after which the API expires a job).
    ///   - maxInterval: the longest wait between two looks (default 60 s).
    ///   - folder: `nil` (the default): each look reads the job whole, so the returned job holds
    ///     its inline answers. A folder: each look streams the reply through a temporary file
    ///     there and keeps no answers (for jobs whose answers are large: read them afterwards
    ///     with ``getBatch(_:folder:forEachItem:)``).
    ///   - onChange: called with the job each time a look finds a new state (the first look
    ///     included), before the wait goes on or ends.
    /// - Returns: the ended job; read its answers with ``GeminiBatch/textAnswers`` or
    ///   ``GeminiBatchItem/outcome(structured:)``.
    /// - Throws: ``GeminiBatchWaitError/timedOut(name:waited:state:)`` past `timeout`,
    ///   ``GeminiError`` from a look, or `CancellationError`.
    public func waitUntilDone(
        _ name: String, timeout: Duration = .seconds(48 * 3600), maxInterval: Duration = .seconds(60),
        streamingThrough folder: URL? = nil, onChange: (@Sendable (GeminiBatch) -> Void)? = nil
    ) async throws -> GeminiBatch {
        let last = LockedBox<GeminiBatchState>(.unspecified)
        return try await GeminiPoller(maxInterval: maxInterval, timeout: timeout, sleep: configuration.sleep)
            .poll {
                let batch =
                    if let folder {
                        try await getBatch(name, folder: folder) { _ in }
                    } else {
                        try await getBatch(name)
                    }
                if batch.state != last.get() { onChange?(batch) }
                last.set(batch.state)
                return batch.state.isTerminal ? batch : nil
            } timedOut: { waited in
                GeminiBatchWaitError.timedOut(name: name, waited: waited, state: last.get())
            }
    }
}

/// Why ``GeminiAPIClient/waitUntilDone(_:timeout:maxInterval:streamingThrough:onChange:)`` gave up.
public enum GeminiBatchWaitError: Error, Sendable, Hashable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// The job had not ended after `waited`; `state` is the last one seen.
    case timedOut(name: String, waited: Duration, state: GeminiBatchState)

    /// `batch batches/ID still RUNNING after 3600 s`.
    public var description: String {
        switch self {
        case .timedOut(let name, let waited, let state):
            "batch \(name) still \(state.rawValue) after \(waited.components.seconds) s"
        }
    }

    /// The case and its fields, for logs.
    public var debugDescription: String {
        ErrorCaseDescription.describe(self, typeName: "GeminiBatchWaitError")
    }
}

extension GeminiBatchItem {
    /// The item's answer as text (thought parts left out), or the typed error a live call would
    /// have thrown for it (``GeminiAnswerReader/read(_:)-(GeminiBatchItem)``).
    public var text: Result<String, GeminiError> {
        GeminiAnswerReader().read(self).map(\.text)
    }
}

extension GeminiBatch {
    /// The text answers of a finished job with inline input, by key (items without a key
    /// under their position, `"1"`, `"2"` ...): each the answer text or the item's typed error.
    /// Empty while the job runs, and for file input (read the results file).
    public var textAnswers: [String: Result<String, GeminiError>] {
        var answers: [String: Result<String, GeminiError>] = [:]
        for (index, item) in (inlinedResponses ?? []).enumerated() {
            answers[item.key ?? String(index + 1)] = item.text
        }
        return answers
    }
}
