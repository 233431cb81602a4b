import Foundation
import SophonCore
import SophonGemini

/// `key set | show | delete | path` (docs/language.md, "The REPL"): the key never appears in
/// history, saved scripts, tapes or logs, and `key set VALUE` is refused.
enum KeyCommands {
    static func run(_ request: CommandRequest, context: CommandContext, services: GeminiServices) throws
        -> CommandResult
    {
        let keychain = services.keychain
        switch request.arguments {
        case ["set"]:
            guard let secret = context.runtime.readSecret("API key: "), !secret.isEmpty else {
                // Ctrl-C at the prompt cancelled the command: report an interruption.
                if Task.isCancelled { throw CancellationError() }
                throw CommandFailure(kind: .usage, message: "key set: no key was entered")
            }
            if let bad = APIKeyCharacters.firstBadCharacter(in: secret) {
                throw CommandFailure(
                    kind: .invalidAPIKey, message: "key set: " + bad.message(subject: "the key"))
            }
            do {
                let source = try keychain.save(secret)
                if context.mode == .interactive { context.io.printError("saved the key to \(source)") }
                if let active = try? services.apiKey(), case .environment(let variable) = active.source {
                    context.io.printError(
                        ShellMessages.note("\(variable) is set and takes precedence over the saved key"))
                }
            } catch {
                throw CommandFailure(kind: .keyStoreError, message: "key set: \(error)")
            }
            return .none
        case let words where words.first == "set":
            throw CommandFailure(
                kind: .usage,
                message:
                    "key set takes no value (it would land in history); run 'key set' and paste the key at the prompt, or pipe it: sophon key set < key.txt"
            )
        case ["show"]:
            guard let lookup = try services.apiKey() else {
                return .text("no key set (set GEMINI_API_KEY, or run 'key set')")
            }
            return .text("\(SecretMask.mask(lookup.secret)) (from \(lookup.source))")
        case ["delete"]:
            do {
                let deleted = try keychain.delete()
                if !deleted { context.io.printError(ShellMessages.note("no key was stored")) }
            } catch {
                throw CommandFailure(kind: .keyStoreError, message: "key delete: \(error)")
            }
            return .none
        case ["path"]:
            return .text(services.paths.keysFile.path)
        default:
            let typed = request.arguments.first ?? ""
            let close = Suggestions.closest(to: typed, in: ["set", "show", "delete", "path"]).first
            throw context.usageFailure("key", hint: close.map { "did you mean '\($0)'?" })
        }
    }
}
