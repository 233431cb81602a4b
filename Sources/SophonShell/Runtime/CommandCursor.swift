import Synchronization

/// The commands of one source and how far the run has got.
final class CommandCursor: Sendable {
    private let commands: Mutex<(list: [ParsedCommand], position: Int)>
    private let more: (@Sendable () -> [ParsedCommand])?

    /// A cursor over `commands`, then over what `more` gives each time they are used up
    /// (blocking until it has some; empty at the end): a script read as it arrives.
    init(_ commands: [ParsedCommand], more: (@Sendable () -> [ParsedCommand])? = nil) {
        self.commands = Mutex((commands, 0))
        self.more = more
    }

    /// The next command, or `nil` at the end.
    func next() -> ParsedCommand? {
        while true {
            let command = commands.withLock { state -> ParsedCommand? in
                guard state.position < state.list.count else { return nil }
                defer { state.position += 1 }
                return state.list[state.position]
            }
            if let command { return command }
            // Read outside the lock: `more` may wait for input.
            guard let batch = more?(), !batch.isEmpty else { return nil }
            commands.withLock { $0 = (batch, 0) }
        }
    }
}
