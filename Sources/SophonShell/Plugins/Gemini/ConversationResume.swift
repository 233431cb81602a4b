import SophonCore
import SophonGemini
import SophonLogs

/// `chat --continue` and `sophon --continue` (docs/logs.md): the newest logged conversation
/// becomes the session's, turn by turn as sent and received (thought signatures included), and
/// the next `chat` turns are logged under the same conversation ID.
enum ConversationResume {
    /// What `--continue` says on stderr when there is nothing to continue.
    static let nothingLogged = "no logged conversation to continue; starting a new one"

    /// Loads the newest logged conversation into `session`.
    /// - Returns: the number of turns loaded (0 when none was logged: a note says so).
    /// - Throws: ``CommandFailure`` (`fileError`) when the log cannot be read.
    @discardableResult
    static func resume(session: ShellSession, registry: PluginRegistry, io: ShellIO) throws -> Int {
        guard let plugin = registry.plugins.lazy.compactMap({ $0 as? LogPlugin }).first else { return 0 }
        let loaded: (turns: [Content], id: String?)
        do {
            loaded = try plugin.withStore(io: io) { try ExchangeLog.lastConversation($0) }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(kind: .fileError, message: "--continue: \(plugin.path ?? ""): \(error)")
        }
        guard let id = loaded.id, !loaded.turns.isEmpty else {
            io.printError(ShellMessages.note(nothingLogged))
            return 0
        }
        session.withGeminiState { $0.conversation = loaded.turns }
        session.withLogState { $0.conversationID = id }
        return loaded.turns.count
    }

    /// `sophon --continue`, before anything runs.
    /// - Returns: `nil` to go on, else the exit status after printing the error.
    static func atStart(_ runtime: ShellRuntime) -> Int32? {
        do {
            try resume(session: runtime.session, registry: runtime.registry, io: runtime.io)
            return nil
        } catch let failure as CommandFailure {
            runtime.io.printError("error: \(failure.message)")
            return ShellExitStatus.failure
        } catch {
            runtime.io.printError("error: \(error)")
            return ShellExitStatus.failure
        }
    }

    /// `chat --continue`, declared with `chat`'s options.
    static let option = CommandOption(name: "--continue", help: "resume the newest logged conversation first")

    /// `chat --continue [MESSAGE]`: removes `--continue` from the request's options and resumes.
    /// - Returns: the request without it, and whether it was there.
    static func take(_ request: CommandRequest, context: CommandContext) throws -> (CommandRequest, Bool) {
        guard let index = request.arguments.firstIndex(of: "--continue") else { return (request, false) }
        var request = request
        request.arguments.remove(at: index)
        try resume(session: context.session, registry: context.registry, io: context.io)
        return (request, true)
    }
}
