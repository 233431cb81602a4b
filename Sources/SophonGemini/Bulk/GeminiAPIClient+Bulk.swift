import Foundation
import SophonCore

extension GeminiAPIClient {
    /// Runs many requests with at most `options.jobs` in flight, paced by one
    /// ``BulkRateLimiter`` (requests and tokens per sliding minute, slowed by 429s), and yields
    /// each result as its call finishes (docs/running-many-prompts.md).
    ///
    /// `requests` is read lazily, a few ahead of the calls, so a long input never sits whole in
    /// memory. Every wait is decided by ``RetryDecision`` and waited on the client's injected
    /// clock. A 429 is not retried inside the call: the whole run pauses for the server's wait
    /// (`RetryInfo` / `Retry-After`, else ``BulkRunOptions/defaultRateLimitWait``) and the key is
    /// asked again, up to ``BulkRunOptions/maxRateLimitRetries`` times. Other retryable failures
    /// follow ``BulkRunOptions/retryPolicy``. The value of a text answer is a string, except for a
    /// request whose `responseMimeType` is `application/json`, whose answer is parsed as JSON. A key's final failure is a ``BulkResult`` with
    /// ``BulkResult/Outcome/failure(_:)``, never an error of the stream.
    ///
    /// `onSend` is told of every call as it starts (for a caller that keeps them, so a resumed
    /// run can pass the last minute's in ``BulkRunOptions/recentSends``).
    ///
    /// - Returns: the results in the order calls finish. The stream throws only what
    ///   `requests` throws; cancelling the consuming task (or dropping the stream) cancels the
    ///   calls in flight.
    public func bulkRun<Requests: AsyncSequence & Sendable>(
        _ requests: Requests, options: BulkRunOptions = BulkRunOptions(), label: String = "run",
        onSend: (@Sendable (BulkSend) -> Void)? = nil
    ) -> AsyncThrowingStream<BulkResult, Error> where Requests.Element == BulkRequest {
        let limiter = BulkRateLimiter(
            jobs: options.jobs, requestsPerMinute: options.requestsPerMinute,
            tokensPerMinute: options.tokensPerMinute, recentSends: options.recentSends,
            now: configuration.now, sleep: configuration.sleep)
        let (stream, continuation) = AsyncThrowingStream<BulkResult, Error>.makeStream()
        let task = Task {
            do {
                try await withThrowingTaskGroup(of: BulkResult.self) { group in
                    var running = 0
                    for try await request in requests {
                        if running >= options.jobs, let done = try await group.next() {
                            continuation.yield(done)
                            running -= 1
                        }
                        group.addTask {
                            try await self.bulkCall(
                                request, options: options, limiter: limiter, label: label, onSend: onSend)
                        }
                        running += 1
                    }
                    while let done = try await group.next() { continuation.yield(done) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
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
                        policy: options.rateLimitPolicy, deadline: nil, random: configuration.random)
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
                    policy: options.retryPolicy, deadline: nil, random: configuration.random)
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
