import Foundation
import SophonCore

/// `sleep`, `source`, `save`, `exit`/`quit`.
enum ScriptCommands {
    /// The deepest `source` nesting allowed.
    static let maximumSourceDepth = 16

    static func sleep(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        guard request.arguments.count == 1, let duration = DurationParser.parse(request.arguments[0]) else {
            throw context.usageFailure("sleep", hint: "for example 500ms, 2s, 1m")
        }
        try await Task.sleep(for: duration)
        return .none
    }

    static func exit(_ request: CommandRequest) throws -> CommandResult {
        switch request.arguments.count {
        case 0: return .exit(nil)
        case 1:
            guard let status = Int32(request.arguments[0]), (0...255).contains(status) else {
                throw CommandFailure(kind: .usage, message: "\(request.name): expected a status in 0...255")
            }
            return .exit(status)
        default:
            throw CommandFailure(kind: .usage, message: ShellMessages.usage("\(request.name) [N]"))
        }
    }

    static func source(_ request: CommandRequest, context: CommandContext) async throws -> CommandResult {
        guard request.arguments.count == 1 else {
            throw context.usageFailure("source")
        }
        guard context.depth < maximumSourceDepth else {
            throw CommandFailure(
                kind: .sourceTooDeep,
                message: "source: nested more than \(maximumSourceDepth) levels deep")
        }
        let path = context.resolve(request.arguments[0])
        let source: ShellSource
        do {
            source = try ScriptFile.load(path)
        } catch {
            throw CommandFailure(kind: .fileError, message: "source: \(error.message)")
        }
        let flow = await context.runtime.run(
            source, directory: ScriptFile.directory(of: path), depth: context.depth + 1, recorded: false)
        if case .stop(let status) = flow { return .exit(status) }
        return .none
    }

    static func save(_ request: CommandRequest, context: CommandContext) throws -> CommandResult {
        guard request.arguments.count == 1 else {
            throw context.usageFailure("save")
        }
        let path = request.arguments[0]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(kind: .fileError, message: "save: '\(path)' is a directory")
        }
        try OutputFolder.require(path, command: "save")
        let commands = context.session.withState { $0.succeededCommands }
        let text = commands.map { $0 + "\n" }.joined()
        do {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(kind: .fileError, message: "save: \(error)")
        }
        return .none
    }
}
