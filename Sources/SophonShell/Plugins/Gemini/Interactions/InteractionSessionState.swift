import SophonCore
import SophonGemini

/// Which API `ask`, `chat`, schemas and tools go through (`set api`, docs/interactions.md).
enum GeminiAPIChoice: String, Sendable, CaseIterable {
    /// `models/{id}:generateContent` (the default).
    case generateContent = "generate-content"
    /// `/v1beta/interactions`.
    case interactions
}

/// The Interactions side of a session: the API in use, whether the server stores turns, the
/// chat's conversation there and the last interaction's id (`show interaction`).
struct InteractionSessionState: PluginSessionState {
    /// `set api`.
    var api = GeminiAPIChoice.generateContent
    /// `set store on|off`: off sends the whole history each turn (`"store": false`).
    var store = true
    /// The `chat` conversation over Interactions; `nil` before its first turn and after `reset`.
    var conversation: GeminiInteractionConversation?
    /// The id of the last interaction `ask`, `chat` or `tool-reply` made.
    var lastInteractionID: String?
}

extension ShellSession {
    /// Runs `body` with exclusive access to the session's Interactions state.
    func withInteractionState<Result>(_ body: (inout InteractionSessionState) throws -> Result) rethrows
        -> Result
    {
        try withPluginState(InteractionSessionState.self, body)
    }
}
