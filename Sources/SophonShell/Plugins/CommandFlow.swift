/// What happens after a command.
enum CommandFlow: Sendable, Equatable {
    /// Go on with the next command.
    case next
    /// End the whole run: `exit [N]` (`nil`: computed) or `--bail` after a failure.
    case stop(Int32?)
}
