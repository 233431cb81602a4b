import Foundation
import SophonCore

/// What the retry loop did, for ``GeminiResult``.
struct RetryOutcome: Sendable {
    var modelID: String
    var retryCount: Int
    var usedFallback: Bool
}

extension GeminiAPIClient {
    /// Runs `operation` once per attempt under `policy` (docs/library.md): retries as
    /// ``RetryDecision`` decides, after its wait (injected sleep), switches once to the
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
                failure, attempt: attempt, of: attempts, policy: policy, deadline: deadline,
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
