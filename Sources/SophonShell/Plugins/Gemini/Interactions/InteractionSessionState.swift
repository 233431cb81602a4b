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

/// `set api generate-content|interactions`, `set store on|off`, `show interaction`: the Gemini
/// plugin's rows of the one settings table for the Interactions API (docs/interactions.md).
enum InteractionSettings {
    /// The rows: `api` and `store`.
    static let definitions = [
        SettingDefinition(name: "api", values: GeminiAPIChoice.allCases.map(\.rawValue)),
        SettingDefinition(name: "store", values: ["on", "off"]),
    ]

    /// `set api VALUE` or `set store on|off`; `nil` for another setting.
    /// - Throws: ``CommandFailure`` (`invalidSetting`) for a value outside the setting's.
    static func set(_ name: String, _ words: [String], context: CommandContext) throws -> CommandResult? {
        let value = words.joined(separator: " ")
        switch name {
        case "api":
            guard let choice = GeminiAPIChoice(rawValue: value.lowercased()) else {
                throw CommandFailure.invalidSetting(
                    name, expected: "generate-content or interactions", got: value,
                    among: GeminiAPIChoice.allCases.map(\.rawValue))
            }
            context.session.withInteractionState { $0.api = choice }
            return CommandResult.none
        case "store":
            guard let on = OnOff.parse(value) else {
                throw CommandFailure.invalidSetting(
                    name, expected: "on or off", got: value, among: ["on", "off"])
            }
            context.session.withInteractionState { state in
                state.store = on
                if !on { state.conversation?.forgetStoredInteraction() }
                state.conversation?.store = on
            }
            return CommandResult.none
        default:
            return nil
        }
    }

    /// `show api`, `show store`, `show interaction`; `nil` for another name.
    static func show(_ name: String, context: CommandContext) -> CommandResult? {
        let state = context.session.withInteractionState { $0 }
        switch name {
        case "api": return .text(state.api.rawValue)
        case "store": return .text(OnOff.text(state.store))
        case "interaction":
            guard let id = state.lastInteractionID else {
                return .report(
                    InteractionMessages.noInteraction, data: .object([JSONMember("interaction", .null)]))
            }
            return .report(id, data: .object([JSONMember("interaction", .string(id))]))
        default:
            return nil
        }
    }
}
