/// A command failure with a kind for `--json` (`{"error": {"kind": ..., "message": ...}}`).
struct CommandFailure: Error, Sendable, Equatable {
    /// lowerCamelCase name of the error (`usage`, `noJSONFound`, `unknownCommand`).
    var kind: String
    /// One readable line, without the `error: ` prefix.
    var message: String
}
