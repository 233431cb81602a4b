/// A command failure with a kind for `--json` (`{"error": {"kind": ..., "message": ...}}`).
struct CommandFailure: Error, Sendable, Equatable {
    /// What kind of error it is (its raw value is the `--json` `kind`).
    var kind: ShellErrorKind
    /// One readable line, without the `error: ` prefix.
    var message: String
}
