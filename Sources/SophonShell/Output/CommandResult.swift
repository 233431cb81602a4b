import SophonCore

/// What a command produced.
enum CommandResult: Sendable, Equatable {
    /// A state change, or a command that printed its own output.
    case none
    /// Text to print (`echo`, `show`); not a value, so `$last` stays.
    case text(String)
    /// A JSON value: printed by the shell in the current output format, and becomes `$last`.
    case value(JSONValue)
    /// A JSON value kept as compact text (a large `extract` result): printed from its text
    /// without building a tree, and becomes `$last`, parsed only when a later command reads
    /// into it. Prints exactly as ``value(_:)`` of the same value does.
    case lazyValue(LazyJSONValue)
    /// `exit [N]`/`quit`: ends the whole run; `nil` means 1 if any command failed, else 0.
    case exit(Int32?)
    /// The answer of a Gemini call: a value for `$last`, with what `--json` adds.
    case reply(CallReply)
}

/// A Gemini call's answer as the shell prints it (docs/commands.md, "--json output").
struct CallReply: Sendable, Equatable {
    /// The value (`$last`): the decoded JSON of a structured answer, else the text as a string.
    var value: JSONValue
    /// Text printed instead of the value in pretty and raw output (a text answer); `nil`
    /// prints the value.
    var display: String?
    /// Whether the text was already streamed to stdout as it arrived.
    var alreadyPrinted = false
    /// `--json` members: `model`, `usage`, `retries`.
    var envelope: [JSONMember]
}
