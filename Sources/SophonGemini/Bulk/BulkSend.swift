import Foundation

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
