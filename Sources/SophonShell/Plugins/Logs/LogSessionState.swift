/// The log plugin's part of a session (docs/logs.md): whether exchanges are logged
/// (`set log on|off`, `--no-log`) and the ID of the chat conversation in progress.
struct LogSessionState: PluginSessionState {
    /// `set log off` turns logging off for this session; `nil` until set (then the run's
    /// `--no-log` decides).
    var enabled: Bool?
    /// The conversation `chat` turns are logged under; a new one starts with an empty
    /// conversation (the first `chat`, or after `reset`).
    var conversationID: String?
}

extension ShellSession {
    /// Runs `body` with exclusive access to the log plugin's state in this session.
    func withLogState<Result>(_ body: (inout LogSessionState) throws -> Result) rethrows -> Result {
        try withPluginState(LogSessionState.self, body)
    }
}
