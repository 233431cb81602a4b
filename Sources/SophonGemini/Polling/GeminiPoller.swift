/// The one way the client waits for a server-side job (docs/library.md): asks `check` at once,
/// then after 1 s, 2 s, 4 s ... (doubling, at most 10 s apart) until it returns a value or
/// `timeout` has been waited, sleeping through the configuration's `sleep` (so tests see the
/// waits and cancelling the task stops the wait). Each `check` is a call on the client's one
/// call path, with its own retries. Used by `waitUntilActive` (files) and `waitUntilDone`
/// (batches).
struct GeminiPoller: Sendable {
    /// The first wait.
    var firstInterval: Duration = .seconds(1)
    /// The longest wait between two checks.
    var maxInterval: Duration = .seconds(10)
    /// The longest total wait.
    var timeout: Duration
    /// The sleep (``GeminiClientConfiguration/sleep``).
    var sleep: @Sendable (Duration) async throws -> Void

    /// Calls `check` until it returns a value.
    /// - Parameters:
    ///   - check: one look at the job: its value when done, `nil` to wait and look again.
    ///   - timedOut: the error to throw once `timeout` has been waited, given the time waited.
    /// - Throws: what `check` throws, `timedOut(waited)`, or `CancellationError`.
    func poll<Value>(
        _ check: () async throws -> Value?, timedOut: (Duration) -> any Error
    ) async throws -> Value {
        var waited = Duration.zero
        var interval = firstInterval
        while true {
            if let value = try await check() { return value }
            guard waited < timeout else { throw timedOut(waited) }
            let step = min(interval, timeout - waited)
            try await sleep(step)
            waited += step
            interval = min(interval * 2, maxInterval)
        }
    }
}
