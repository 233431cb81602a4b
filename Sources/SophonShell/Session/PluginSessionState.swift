import SophonCore

/// What one plugin keeps in a session (the Gemini plugin: schema, conversation, attachments,
/// retry policy, usage). The session stores one value per type and never looks inside.
protocol PluginSessionState: Sendable {
    /// The state of a new session.
    init()
    /// Members the session view sent to external plugins carries for this state (after
    /// `model`); none by default.
    var sessionViewMembers: [JSONMember] { get }
}

extension PluginSessionState {
    var sessionViewMembers: [JSONMember] { [] }
}
