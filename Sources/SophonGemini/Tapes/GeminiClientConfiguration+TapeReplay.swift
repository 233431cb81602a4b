import Foundation

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
