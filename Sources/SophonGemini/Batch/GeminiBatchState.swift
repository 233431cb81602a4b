/// The state of a Batch job (docs/running-many-prompts.md). The wire uses `BATCH_STATE_*`;
/// Google's REST sample compares against `JOB_STATE_*`: both prefixes are read.
public enum GeminiBatchState: String, Sendable, Hashable, CaseIterable {
    /// Waiting to run.
    case pending = "PENDING"
    /// Running.
    case running = "RUNNING"
    /// Done; results are ready (items may still have failed).
    case succeeded = "SUCCEEDED"
    /// The job failed (``GeminiBatch/error`` says why); no results.
    case failed = "FAILED"
    /// Cancelled by the user.
    case cancelled = "CANCELLED"
    /// Pending or running for more than 48 h; no results: resubmit.
    case expired = "EXPIRED"
    /// A state this client does not know.
    case unspecified = "UNSPECIFIED"

    /// Reads `BATCH_STATE_X`, `JOB_STATE_X` or `X`; anything else is ``unspecified``.
    public init(wire: String) {
        var text = wire
        for prefix in ["BATCH_STATE_", "JOB_STATE_"] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        self = GeminiBatchState(rawValue: text) ?? .unspecified
    }

    /// Whether the job will not change any more (SUCCEEDED, FAILED, CANCELLED, EXPIRED).
    public var isTerminal: Bool { [.succeeded, .failed, .cancelled, .expired].contains(self) }
}
