import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Runs many requests with at most `options.jobs` in flight, paced by one
    /// ``BulkRateLimiter`` (requests and tokens per sliding minute, slowed by 429s), and yields
    /// each result as its call finishes (docs/running-many-prompts.md).
    ///
    /// `requests` is read lazily, the next request once a call's slot is free, so a long input
    /// never sits whole in memory, and a sequence that ends early (a spent budget) stops the
    /// run with only the calls in flight left to finish. Every wait is decided by `RetryDecision` and waited on the client's injected
    /// clock. A 429 is not retried inside the call: the whole run pauses for the server's wait
    /// (`RetryInfo` / `Retry-After`, else ``BulkRunOptions/defaultRateLimitWait``) and the key is
    /// asked again, up to ``BulkRunOptions/maxRateLimitRetries`` times. Other retryable failures
    /// follow ``BulkRunOptions/retryPolicy``. The value of a text answer is a string, except for a
    /// request whose `responseMimeType` is `application/json`, whose answer is parsed as JSON. A key's final failure is a ``BulkResult`` with
    /// ``BulkResult/Outcome/failure(_:)``, never an error of the stream.
    ///
    /// `onSend` is told of every call as it starts (for a caller that keeps them, so a resumed
    /// run can pass the last minute's in ``BulkRunOptions/recentSends``); `onResult` of every
    /// result as its call finishes, before the stream yields it and before the next request is
    /// read (for a caller that counts what the calls cost and ends `requests` when a budget is
    /// spent, whatever pace the stream is read at).
    ///
    /// - Returns: the results in the order calls finish. The stream throws only what
    ///   `requests` throws; cancelling the consuming task (or dropping the stream) cancels the
    ///   calls in flight.
    public func bulkRun<Requests: AsyncSequence & Sendable>(
        _ requests: Requests, options: BulkRunOptions = BulkRunOptions(), label: String = "run",
        onSend: (@Sendable (BulkSend) -> Void)? = nil, onResult: (@Sendable (BulkResult) -> Void)? = nil
    ) -> AsyncThrowingStream<BulkResult, Error> where Requests.Element == BulkRequest {
        let limiter = BulkRateLimiter(
            jobs: options.jobs, requestsPerMinute: options.requestsPerMinute,
            tokensPerMinute: options.tokensPerMinute, recentSends: options.recentSends,
            now: configuration.now, sleep: configuration.sleep)
        let (stream, continuation) = AsyncThrowingStream<BulkResult, Error>.makeStream()
        // Calls run concurrently: under a tape replay each takes the exchange recorded for its
        // own request, not the next one in the tape (docs/tapes.md, "Replaying a run"); the
        // calls' tasks inherit the value.
        let task = Task {
            await GeminiTapeReplayer.$matchesConcurrentRequests.withValue(true) {
                do {
                    try await withThrowingTaskGroup(of: BulkResult.self) { group in
                        var running = 0
                        var iterator = requests.makeAsyncIterator()
                        while true {
                            // A free slot first, then the next request: read after the results
                            // before it were told (`onResult`).
                            if running >= options.jobs, let done = try await group.next() {
                                onResult?(done)
                                continuation.yield(done)
                                running -= 1
                            }
                            guard let request = try await iterator.next() else { break }
                            group.addTask {
                                try await self.bulkCall(
                                    request, options: options, limiter: limiter, label: label, onSend: onSend)
                            }
                            running += 1
                        }
                        while let done = try await group.next() {
                            onResult?(done)
                            continuation.yield(done)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(afterFeedingFailed: error)
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// One key of a bulk run: waits for the limiter, calls, and retries as
    /// ``bulkRun(_:options:label:)`` describes.
    func bulkCall(
        _ item: BulkRequest, options: BulkRunOptions, limiter: BulkRateLimiter, label: String,
        onSend: (@Sendable (BulkSend) -> Void)? = nil
    ) async throws -> BulkResult {
        var single = options.retryPolicy
        single.attempts = 1
        let estimate = max(1, ((try? OrderedJSONEncoder().encodeData(item.request).count) ?? 0) / 4)
        var attempt = 1
        var limited = 0
        while true {
            let ticket = try await limiter.acquire(tokens: estimate)
            onSend?(BulkSend(time: Date(), tokens: estimate))
            do {
                // The answer is read as `batch results` reads it: one reader.
                let body = item.request.answering(schema: item.schema)
                let result = try await sendRequest(label: label, model: item.model, retryPolicy: single) {
                    _ in
                    body
                }
                let answer = try GeminiAnswerReader(request: body, schema: item.schema).read(result.response)
                let outcome = BulkResult.Outcome.success(
                    value: answer.value, modelID: result.modelID, usage: result.usage)
                var used: Int?
                if case .success(_, _, let usage) = outcome { used = usage?.totalTokenCount }
                await limiter.finished(ticket, usedTokens: used, succeeded: true)
                return BulkResult(key: item.key, outcome: outcome, rateLimitedCount: limited)
            } catch let error as GeminiError {
                if case .rateLimited(let wait, _) = error {
                    // The wait is decided by the one rule; the limiter makes the whole run wait it.
                    limited += 1
                    let decision = RetryDecision.after(
                        AttemptError(error, serverWait: wait), attempt: limited,
                        of: options.maxRateLimitRetries + 1,
                        policy: options.rateLimitPolicy, timeLeft: nil, random: configuration.random)
                    guard case .retry(let pause) = decision else {
                        await limiter.rateLimited(ticket, wait: wait ?? options.defaultRateLimitWait)
                        return BulkResult(key: item.key, outcome: .failure(error), rateLimitedCount: limited)
                    }
                    await limiter.rateLimited(ticket, wait: pause)
                    continue
                }
                await limiter.finished(ticket, usedTokens: nil, succeeded: false)
                let decision = RetryDecision.after(
                    AttemptError(error), attempt: attempt, of: options.retryPolicy.attempts,
                    policy: options.retryPolicy, timeLeft: nil, random: configuration.random)
                guard case .retry(let wait) = decision else {
                    return BulkResult(key: item.key, outcome: .failure(error), rateLimitedCount: limited)
                }
                try await configuration.sleep(wait)
                attempt += 1
            } catch {
                await limiter.finished(ticket, usedTokens: nil, succeeded: false)
                throw error
            }
        }
    }
}

/// One request of a bulk run (docs/running-many-prompts.md): a caller-chosen key, the request
/// body, and the schema that makes it structured.
public struct BulkRequest: Sendable, Hashable {
    /// The key the result carries back; unique within a run.
    public var key: String
    /// The `generateContent` body.
    public var request: GenerateContentRequest
    /// When set, the answer is a JSON value chosen by this schema (as
    /// ``GeminiAPIClient/generateJSON(label:request:schema:model:retryPolicy:)``); else text.
    public var schema: GeminiSchema?
    /// The model; `nil` uses the client's selected model.
    public var model: GeminiModel?

    /// Creates a request.
    public init(
        key: String, request: GenerateContentRequest, schema: GeminiSchema? = nil, model: GeminiModel? = nil
    ) {
        self.key = key
        self.request = request
        self.schema = schema
        self.model = model
    }
}

/// The outcome of one ``BulkRequest``, in the order calls finish (not input order).
public struct BulkResult: Sendable {
    /// What the call produced.
    public enum Outcome: Sendable {
        /// The answer: a JSON value for a structured request, a string for text; the model
        /// that answered and the reply's token counts.
        case success(value: JSONValue, modelID: String, usage: UsageMetadata?)
        /// The call failed for good (after the run's retries).
        case failure(GeminiError)
    }

    /// The request's key.
    public var key: String
    /// What came back.
    public var outcome: Outcome
    /// How many 429 answers this key met before its outcome.
    public var rateLimitedCount: Int

    /// Creates a result.
    public init(key: String, outcome: Outcome, rateLimitedCount: Int = 0) {
        self.key = key
        self.outcome = outcome
        self.rateLimitedCount = rateLimitedCount
    }

    /// Whether the call succeeded.
    public var isSuccess: Bool {
        if case .success = outcome { return true }
        return false
    }
}

/// How a bulk run paces itself (docs/running-many-prompts.md).
public struct BulkRunOptions: Sendable, Hashable {
    /// Calls in flight at most (at least 1).
    public var jobs: Int
    /// Requests per sliding 60 s window; `nil` for no client-side limit.
    public var requestsPerMinute: Int?
    /// Tokens per sliding 60 s window (estimated as request bytes / 4 before a call, corrected
    /// from the reply's `totalTokenCount`); `nil` for no limit.
    public var tokensPerMinute: Int?
    /// The retry policy for failures other than 429: its `attempts` and backoff apply per key.
    public var retryPolicy: GeminiRetryPolicy
    /// How many 429 answers one key may meet before it fails with `rateLimited`.
    public var maxRateLimitRetries: Int
    /// The wait after a 429 that carried no server wait.
    public var defaultRateLimitWait: Duration
    /// Calls an earlier run of the same job started (a killed run's last minute): those of the
    /// last 60 s fill the limiter's window from the start. Empty by default.
    public var recentSends: [BulkSend] = []

    /// Creates options; defaults: 8 jobs, no limits, the default retry policy, 20 retries per
    /// key after 429, 1 s wait when the server gives none.
    public init(
        jobs: Int = 8, requestsPerMinute: Int? = nil, tokensPerMinute: Int? = nil,
        retryPolicy: GeminiRetryPolicy = .default, maxRateLimitRetries: Int = 20,
        defaultRateLimitWait: Duration = .seconds(1)
    ) {
        self.jobs = max(1, jobs)
        self.requestsPerMinute = requestsPerMinute
        self.tokensPerMinute = tokensPerMinute
        self.retryPolicy = retryPolicy
        self.maxRateLimitRetries = maxRateLimitRetries
        self.defaultRateLimitWait = defaultRateLimitWait
    }

    /// The rule for a key's 429s, as `RetryDecision` reads it: ``maxRateLimitRetries`` retries,
    /// each after the server's wait (no cap) or else ``defaultRateLimitWait`` (no jitter).
    var rateLimitPolicy: GeminiRetryPolicy {
        GeminiRetryPolicy(
            attempts: maxRateLimitRetries + 1, baseDelay: defaultRateLimitWait,
            maxDelay: defaultRateLimitWait,
            jitter: 0, honoursServerWait: true, maxServerWait: .seconds(Int64.max), fallbackOn404: false,
            downscale: false)
    }
}

/// One call a bulk run started, as the rate limiter counts it: when (wall-clock time, so it
/// outlives the process) and its estimated tokens. A run that is resumed after a kill passes the
/// last minute's sends in ``BulkRunOptions/recentSends`` so its window starts as full as the
/// server's still is (docs/running-many-prompts.md, "Resuming").
public struct BulkSend: Sendable, Hashable {
    /// When the call started.
    public var time: Date
    /// Its estimated tokens (request bytes / 4).
    public var tokens: Int

    /// Creates a send.
    public init(time: Date, tokens: Int) {
        self.time = time
        self.tokens = tokens
    }
}
