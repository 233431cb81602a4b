import Foundation

/// The pace of a bulk run, shared by all its calls (docs/running-many-prompts.md).
///
/// - Requests and tokens are counted over a sliding 60 s window: a call may start when the
///   window holds fewer than the requests-per-minute limit and its estimated tokens fit in the
///   tokens-per-minute limit (a call larger than the whole limit starts alone in an empty
///   window). A call is counted from its start and, once it ended, from its end (the server
///   counted it in between, so the client's window never runs ahead of the server's); its
///   estimate is replaced by the tokens it really used.
/// - A 429 pauses every call until the server's wait (or the default wait) has passed and
///   slows the run: the limits and the calls in flight are scaled by a factor that drops to
///   80% of its value per 429 (never below 10%) and climbs back by 2 points per success.
public actor BulkRateLimiter {
    /// A started call's place in the window.
    public struct Ticket: Sendable, Hashable {
        let id: Int
    }

    private struct Entry {
        var id: Int
        var time: ContinuousClock.Instant
        var tokens: Int
    }

    private let jobs: Int
    private let requestsPerMinute: Int?
    private let tokensPerMinute: Int?
    private let window: Duration = .seconds(60)
    private var entries: [Entry] = []
    private var head = 0
    private var windowTokens = 0
    private var nextID = 0
    private var inFlight = 0
    private var pausedUntil: ContinuousClock.Instant?
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sleep: @Sendable (Duration) async throws -> Void
    /// The slow-down factor, 0.1 ... 1.
    public private(set) var factor = 1.0

    /// How much later than its recorded start a call of ``BulkRunOptions/recentSends`` is
    /// counted: 1 s.
    public static let recordedSendMargin = Duration.seconds(1)

    /// Creates a limiter for `jobs` calls in flight at most and the given per-minute limits
    /// (`nil`: no limit). `recentSends` of the last 60 s (wall clock) start in the window, as
    /// ended calls at their start plus ``recordedSendMargin``. `now` and `sleep` are the clock
    /// the window and a pause are measured on (the client's injected clock in a bulk run).
    public init(
        jobs: Int, requestsPerMinute: Int?, tokensPerMinute: Int?, recentSends: [BulkSend] = [],
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.jobs = max(1, jobs)
        self.requestsPerMinute = requestsPerMinute
        self.tokensPerMinute = tokensPerMinute
        self.now = now
        self.sleep = sleep
        let start = now()
        let wallNow = Date()
        for send in recentSends.sorted(by: { $0.time < $1.time }) {
            let age = wallNow.timeIntervalSince(send.time)
            guard age >= 0, age < 60 else { continue }
            nextID += 1
            // Counted from a second after its start: the server counted it when it arrived,
            // a little later (in a live run the entry moves to the call's end for that reason).
            let time = start - .milliseconds(Int(age * 1000)) + Self.recordedSendMargin
            entries.append(Entry(id: nextID, time: time, tokens: send.tokens))
            windowTokens += send.tokens
        }
    }

    /// The calls counted in the window now (started or ended within the last 60 s).
    public var callsInWindow: Int {
        prune(now())
        return entries.count - head
    }

    private var concurrency: Int { max(1, Int((Double(jobs) * factor).rounded(.up))) }

    private func scaled(_ limit: Int) -> Int { max(1, Int(Double(limit) * factor)) }

    private func prune(_ now: ContinuousClock.Instant) {
        while head < entries.count, now - entries[head].time >= window {
            windowTokens -= entries[head].tokens
            head += 1
        }
        if head > 1024, head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// Waits until a call estimated at `tokens` may start, then counts it.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    public func acquire(tokens: Int) async throws -> Ticket {
        while true {
            try Task.checkCancellation()
            let now = self.now()
            prune(now)
            var wakeAt: ContinuousClock.Instant?
            if let paused = pausedUntil, now < paused {
                wakeAt = paused
            } else if inFlight >= concurrency {
                await withCheckedContinuation { waiters.append($0) }
                continue
            } else if let rpm = requestsPerMinute, entries.count - head >= scaled(rpm) {
                wakeAt = entries[head].time + window
            } else if let tpm = tokensPerMinute, entries.count > head, windowTokens + tokens > scaled(tpm) {
                wakeAt = entries[head].time + window
            }
            if let wakeAt {
                try await sleep(wakeAt - now)
                continue
            }
            nextID += 1
            entries.append(Entry(id: nextID, time: now, tokens: tokens))
            windowTokens += tokens
            inFlight += 1
            return Ticket(id: nextID)
        }
    }

    /// The call of `ticket` ended; `usedTokens` (when known) replaces its estimate.
    /// `succeeded` speeds the run up a little.
    public func finished(_ ticket: Ticket, usedTokens: Int?, succeeded: Bool) {
        if let index = entries[head...].firstIndex(where: { $0.id == ticket.id }) {
            // The server counted the call somewhere between its start and now: counting it
            // from now on keeps this window behind the server's, never ahead of it.
            entries[index].time = now()
            if let usedTokens {
                windowTokens += usedTokens - entries[index].tokens
                entries[index].tokens = usedTokens
            }
        }
        if succeeded { factor = min(1, factor + 0.02) }
        release()
    }

    /// The call of `ticket` was answered 429: every call waits `wait`, and the run slows down.
    public func rateLimited(_ ticket: Ticket, wait: Duration) {
        let until = now() + wait
        if pausedUntil.map({ $0 < until }) ?? true { pausedUntil = until }
        factor = max(0.1, factor * 0.8)
        release()
    }

    private func release() {
        inFlight -= 1
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
