import Foundation
import SophonCore

/// What the retry loop did, for ``GeminiResult``.
struct RetryOutcome: Sendable {
    var modelID: String
    var retryCount: Int
    var usedFallback: Bool
}

extension GeminiAPIClient {
    /// Runs `operation` once per attempt under `policy` (PRODUCT.md §3): retries retryable
    /// failures after the computed or server-requested wait (injected sleep), fails fast when
    /// the server wait exceeds `maxServerWait`, switches once to the fallback model on a 404
    /// for the model (not counted in `attempts`) and resets the stored selection when it was
    /// the model that 404'd. Cancellation ends the loop at once. A wait that would outlast
    /// `deadline` is not started: the call fails at once with the failure (or, for a server
    /// wait, ``GeminiError/rateLimited(retryAfter:)``).
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
        let attempts = max(policy.attempts, 1)
        while true {
            try Task.checkCancellation()
            let variant = GeminiRequestVariant(
                modelID: modelID, compressMedia: compressMedia, attempt: attempt, isFallback: usedFallback)
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
            if case .modelRetired(let retired) = error, initialModel != nil {
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
            guard failure.allowRetry, error.isRetryable, attempt < attempts else { throw error }
            var wait = policy.computedWait(beforeRetry: attempt, random: configuration.random())
            var isServerWait = false
            if policy.honoursServerWait, let serverWait = failure.serverWait {
                if serverWait > policy.maxServerWait { throw GeminiError.rateLimited(retryAfter: serverWait) }
                wait = serverWait
                isServerWait = true
            }
            if let deadline, deadline.remaining <= wait {
                // The retry could not start before the call's limit: fail now, with what went
                // wrong, rather than sleep out the budget and report only a timeout (as a server
                // wait past `maxServerWait` does).
                throw isServerWait ? GeminiError.rateLimited(retryAfter: wait) : error
            }
            if case .transport = error, policy.downscale {
                if !compressMedia { log(.info, GeminiLocalization().string("notice.downscaleUnsupported")) }
                compressMedia = true
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

    /// Resets the stored model selection to the fallback when `modelID` is the stored one.
    func resetStoredSelection(ifItIs modelID: String) {
        let store = configuration.modelStore
        guard let stored = store.loadSelection(), Self.stripModelsPrefix(stored) == modelID else { return }
        store.saveSelection(configuration.fallbackModel.id)
        log(
            .warning,
            "The stored model \(modelID) is not available; the selection is now \(configuration.fallbackModel.id)."
        )
    }

    /// Runs `body` within the configured whole-call timeout.
    ///
    /// `body` gets the call's deadline: a retry that could not start before it is not waited
    /// for. When the transport honours deadlines (``GeminiTransport/honoursDeadline``), `body`
    /// runs in the calling task and its requests carry the deadline. Otherwise `body` runs in a
    /// task group beside a timer task that cancels it when the limit passes. (The deadline is a parameter, not a task-local
    /// value: binding a task-local per call cost 10–15% more CPU per call at 32 concurrent calls
    /// in the benchmark, docs/benchmarks.md.)
    /// - Throws: ``GeminiError/transport(_:detail:)`` (`timedOut`) when the limit passes first.
    func withCallTimeout<R: Sendable>(
        _ body: @escaping @Sendable (GeminiCallDeadline?) async throws -> R
    ) async throws -> R {
        let limit = configuration.callTimeout
        let deadline = GeminiCallDeadline(limit: limit)
        guard transport.honoursDeadline else {
            return try await withTimerTask(limit: limit) { try await body(deadline) }
        }
        do {
            return try await body(deadline)
        } catch let exceeded as GeminiCallDeadline.Exceeded {
            throw exceeded.deadline.error
        }
    }

    /// `body` in a task group with a timer task that cancels it after `limit`.
    private func withTimerTask<R: Sendable>(
        limit: Duration, _ body: @escaping @Sendable () async throws -> R
    ) async throws -> R {
        try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                try Task.checkCancellation()
                throw GeminiCallDeadline(limit: limit).error
            }
            return value
        }
    }
}
