import SophonCore

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
