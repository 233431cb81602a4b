import Foundation
import SophonCore

extension GeminiAPIClient {
    /// The one call path every request kind goes through: takes the key, resolves the model
    /// (when the call names one), refuses an endpoint the backend lacks (Vertex AI) before
    /// anything is sent, runs the attempts under the whole-call limit with the retry
    /// loop, checks the reply, and redacts the key from (and, when the call asks, logs) a
    /// failure.
    /// - Throws: ``GeminiError`` (the key masked), `CancellationError`, or what the call's body
    ///   builder throws.
    func perform<Reply>(
        _ call: GeminiAPICall<Reply>, retryPolicy: GeminiRetryPolicy?
    ) async throws -> (value: Reply, outcome: RetryOutcome) {
        let key = call.sendsCredentials && configuration.accessTokens == nil ? try requireAPIKey() : ""
        let secrets = [key] + (configuration.accessTokens?.secrets ?? [])
        let modelID: String?
        do {
            modelID = call.namesModel ? try callModelID(call.model) : nil
            if configuration.backend.isVertex, call.absoluteURL == nil {
                // What Vertex AI lacks is refused here, before a token or anything else is sent.
                _ = try call.endpoint(modelID ?? "").url(
                    base: configuration.serviceBaseURL, backend: configuration.backend)
            }
        } catch let error as GeminiError {
            throw error.redacting(secrets)
        }
        let given = retryPolicy ?? configuration.retryPolicy
        let policy = configuration.flexTier ? given.forFlex : given
        do {
            guard call.ownsDeadline else {
                return try await attempts(of: call, key: key, modelID: modelID, policy: policy, deadline: nil)
            }
            return try await withCallTimeout { deadline in
                try await self.attempts(
                    of: call, key: key, modelID: modelID, policy: policy, deadline: deadline)
            }
        } catch let error as GeminiError {
            let redacted = error.redacting(secrets + (configuration.accessTokens?.secrets ?? []))
            if call.logsFailures { log(.error, "\(call.label): \(redacted.description(language: "en"))") }
            throw redacted
        }
    }

    /// The attempts of `call` under the retry loop, then its check of the final reply. With
    /// access tokens, each attempt takes the token in memory (refreshed when near expiry), and
    /// a 401 refreshes it once and sends the attempt again (not counted as a retry).
    private func attempts<Reply>(
        of call: GeminiAPICall<Reply>, key: String, modelID: String?, policy: GeminiRetryPolicy,
        deadline: GeminiCallDeadline?
    ) async throws -> (value: Reply, outcome: RetryOutcome) {
        let refreshed = LockedBox(false)
        let result = try await withRetries(
            label: call.label, policy: policy, modelID: modelID, deadline: deadline
        ) { variant in
            do {
                let resumed = call.resumeRoute()
                let body = resumed == nil ? try await call.body(variant) : nil
                while true {
                    let (credentials, token) = try await self.credentialHeaders(for: call, key: key)
                    do {
                        let http = try await self.exchange(
                            label: call.label, method: resumed?.method ?? call.method,
                            endpoint: resumed?.endpoint ?? call.endpoint(variant.modelID),
                            body: body, credentials: credentials, attempt: variant.attempt,
                            streaming: call.streaming, deadline: deadline, asksForTier: call.asksForTier,
                            extraHeaders: call.headers, absoluteURL: call.absoluteURL)
                        return try await call.read(http, variant)
                    } catch let error where Self.isUnauthorized(error) && token != nil && !refreshed.get() {
                        // An expired or revoked token: one new token, the same request again.
                        refreshed.set(true)
                        if let token { self.configuration.accessTokens?.invalidate(token) }
                        log(.info, "\(call.label): the access token was refused (401); refreshing it once")
                    }
                }
            } catch var failure as AttemptError where !call.mayRetry(failure.error) {
                failure.allowRetry = false
                throw failure
            } catch let error as GeminiError where !call.mayRetry(error) {
                throw AttemptError(error, allowRetry: false)
            }
        }
        try call.check(result.value)
        return result
    }

    /// Whether `error` is the API's 401 (a refused access token).
    private static func isUnauthorized(_ error: any Error) -> Bool {
        let typed = (error as? AttemptError)?.error ?? (error as? GeminiError)
        if case .invalidAPIKey(_, let server)? = typed { return server?.status == 401 }
        return false
    }

    /// The credential header fields of one attempt: the API key, or `Authorization: Bearer`
    /// with an access token (and `x-goog-user-project` for a quota project); none for a call
    /// that sends no credentials. Returns the token used, if any.
    private func credentialHeaders<Reply>(for call: GeminiAPICall<Reply>, key: String) async throws
        -> ([String: String], String?)
    {
        guard call.sendsCredentials else { return ([:], nil) }
        guard let tokens = configuration.accessTokens else { return (["x-goog-api-key": key], nil) }
        let token = try await tokens.token(using: self)
        var headers = ["authorization": "Bearer \(token)"]
        if let quota = tokens.credentials.quotaProjectID { headers["x-goog-user-project"] = quota }
        return (headers, token)
    }

    /// Sends one request and reports it to the observer; transport failures become
    /// ``AttemptError``s.
    private func exchange(
        label: String, method: String, endpoint: GeminiEndpoint, body: Data?, credentials: [String: String],
        attempt: Int,
        streaming: Bool, deadline: GeminiCallDeadline?, asksForTier: Bool,
        extraHeaders: [String: String] = [:],
        absoluteURL: URL? = nil
    ) async throws -> GeminiHTTPResponse {
        let url =
            try absoluteURL
            ?? endpoint.url(base: configuration.serviceBaseURL, backend: configuration.backend)
        var headers = credentials
        headers["accept"] = streaming ? "text/event-stream" : "application/json"
        // Vertex AI asks for Flex and Priority PayGo by headers (docs/vertex.md), on
        // generation requests only.
        if asksForTier {
            headers.merge(configuration.backend.tierHeaders(configuration.serviceTier)) { _, tier in tier }
        }
        if body != nil { headers["content-type"] = "application/json" }
        headers.merge(extraHeaders) { _, extra in extra }
        let request = GeminiHTTPRequest(
            method: method, url: url, headers: headers, body: body, timeout: configuration.requestTimeout,
            streaming: streaming, deadline: transport.honoursDeadline ? deadline : nil)
        configuration.observer?(.requestSent(label: label, method: method, path: url.path, attempt: attempt))
        log(.debug, "\(label): \(method) \(url.path) (attempt \(attempt))")
        let start = ContinuousClock.now
        let response: GeminiHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as GeminiError {
            throw AttemptError(error)
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.wholeMilliseconds
        configuration.observer?(
            .responseReceived(
                label: label, status: response.status, statusText: HTTPStatusText.text(for: response.status),
                milliseconds: milliseconds))
        return response
    }

    /// Reads the whole body of a unary response.
    static func collectBody(of response: GeminiHTTPResponse) async throws -> Data {
        do {
            return try await response.collectBody()
        } catch let error as GeminiError {
            throw AttemptError(error)
        }
    }

    /// Decodes a 200 body as `T`; a body that does not decode is a truncated or malformed
    /// response (retryable).
    static func decodeBody<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if T.self == GenerateContentResponse.self, let response = FastResponseDecoding.decode(data) {
            return response as! T  // T is GenerateContentResponse here: the cast cannot fail.
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            if let status = GoogleRPCErrorBody.parse(data) {
                throw GeminiStatusClassifier.classify(
                    status: status.code ?? 500, headers: [:], body: data, modelID: nil, rpc: status)
            }
            throw AttemptError(
                .transport(.badResponse, detail: "Undecodable reply: \(ReplyExcerpt.excerpt(data))"))
        }
    }

    /// Runs `body` within the configured whole-call timeout, on the configuration's
    /// ``GeminiClientConfiguration/deadlineClock``.
    ///
    /// `body` gets the call's deadline: a retry that could not start before it is not waited
    /// for. When the transport honours deadlines (``GeminiTransport/honoursDeadline``), `body`
    /// runs in the calling task and its requests carry the deadline. Otherwise `body` runs in a
    /// task group beside a timer task that cancels it when the limit passes. (The deadline is a parameter, not a task-local
    /// value: binding a task-local per call cost 10–15% more CPU per call at 32 concurrent calls
    /// in the benchmark, docs/benchmarks.md.)
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`timedOut`) when the limit passes first.
    private func withCallTimeout<R: Sendable>(
        _ body: @escaping @Sendable (GeminiCallDeadline?) async throws -> R
    ) async throws -> R {
        let clock = configuration.deadlineClock
        let deadline = GeminiCallDeadline(limit: configuration.callTimeout, start: clock.now)
        guard transport.honoursDeadline else {
            return try await withTimerTask(deadline: deadline, clock: clock) { try await body(deadline) }
        }
        do {
            return try await body(deadline)
        } catch let exceeded as GeminiCallDeadline.Exceeded {
            throw exceeded.deadline.error
        }
    }

    /// `body` in a task group with a timer task that cancels it when `deadline` passes on
    /// `clock`.
    private func withTimerTask<R: Sendable>(
        deadline: GeminiCallDeadline, clock: any GeminiDeadlineClock,
        _ body: @escaping @Sendable () async throws -> R
    ) async throws -> R {
        try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await clock.sleep(until: deadline.instant)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                try Task.checkCancellation()
                throw deadline.error
            }
            return value
        }
    }

    /// Sends a log line to the configured handler, the API key masked.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard let handler = configuration.logHandler else { return }
        let key = (try? requireAPIKey()).map { [$0] } ?? []
        handler(level, SecretMask.redact(message(), secrets: key))
    }
}

/// What the retry loop did, for ``GeminiResult``.
struct RetryOutcome: Sendable {
    var modelID: String
    var retryCount: Int
    var usedFallback: Bool
}

extension GeminiAPIClient {
    /// Runs `operation` once per attempt under `policy` (docs/library.md): retries as
    /// `RetryDecision` decides, after its wait (injected sleep), switches once to the
    /// fallback model on a 404 for the model (not counted in `attempts`) and resets the stored
    /// selection when it was the model that 404'd. Cancellation ends the loop at once.
    func withRetries<R>(
        label: String, policy: GeminiRetryPolicy, modelID initialModel: String?,
        deadline: GeminiCallDeadline? = nil,
        _ operation: (GeminiRequestVariant) async throws -> R
    ) async throws -> (value: R, outcome: RetryOutcome) {
        var modelID = initialModel ?? ""
        var attempt = 1
        var retries = 0
        var usedFallback = false
        var compressMedia = false
        var downscaleStep = 0
        let attempts = max(policy.attempts, 1)
        while true {
            try Task.checkCancellation()
            var variant = GeminiRequestVariant(
                modelID: modelID, compressMedia: compressMedia, attempt: attempt, isFallback: usedFallback)
            variant.downscaleStep = downscaleStep
            let failure: AttemptError
            do {
                let value = try await operation(variant)
                return (
                    value, RetryOutcome(modelID: modelID, retryCount: retries, usedFallback: usedFallback)
                )
            } catch let error as AttemptError {
                failure = error
            } catch let error as GeminiError {
                failure = AttemptError(error)
            }
            try Task.checkCancellation()
            let error = failure.error
            if case .modelRetired(let retired, _) = error, initialModel != nil {
                resetStoredSelection(ifItIs: retired)
                let fallback = configuration.fallbackModel.id
                if policy.fallbackOn404, !usedFallback, fallback != retired {
                    usedFallback = true
                    modelID = fallback
                    log(.notice, "\(label): model \(retired) not found; retrying on \(fallback)")
                    configuration.observer?(.fallback(label: label, from: retired, to: fallback))
                    continue
                }
                throw error
            }
            let wait: Duration
            switch RetryDecision.after(
                failure, attempt: attempt, of: attempts, policy: policy,
                timeLeft: deadline?.remaining(at: configuration.deadlineClock.now),
                random: configuration.random)
            {
            case .fail(let error): throw error
            case .retry(let decided): wait = decided
            }
            if case .transport = error, policy.downscale {
                if !compressMedia, configuration.imageDownscaler == nil {
                    log(.info, GeminiLocalization().string("notice.downscaleUnsupported"))
                }
                compressMedia = true
                downscaleStep += 1
            }
            let reason = GeminiErrorText(error: error, table: GeminiLocalization(language: "en")).text
            log(.info, "\(label): attempt \(attempt) of \(attempts) failed (\(reason)); retrying")
            configuration.observer?(
                .retrying(label: label, retry: attempt, of: attempts - 1, wait: wait, reason: reason))
            try await configuration.sleep(wait)
            try Task.checkCancellation()
            attempt += 1
            retries += 1
        }
    }
}
