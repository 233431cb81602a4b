/// The state of a Batch job (docs/running-many-prompts.md). The wire uses `BATCH_STATE_*`;
/// Google's REST sample compares against `JOB_STATE_*`: both prefixes are read.
public enum GeminiBatchState: String, Sendable, Hashable, CaseIterable {
    case pending = "PENDING"
    case running = "RUNNING"
    case succeeded = "SUCCEEDED"
    case failed = "FAILED"
    case cancelled = "CANCELLED"
    case expired = "EXPIRED"
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
