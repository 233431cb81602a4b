import Foundation
import SophonCore

/// The `sophon` process: parses the command line, then dispatches (PRODUCT.md §4).
enum SophonMain {
    /// Exit statuses (PRODUCT.md §4).
    enum ExitStatus {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 2
        static let interrupted: Int32 = 130
    }

    /// Runs `sophon` with `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], io: ShellIO) async -> Int32 {
        let registry = PluginRegistry.builtIn
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments, isCommand: { registry.command(named: $0) != nil })
        } catch {
            io.printError("sophon: \(error.message)")
            io.printError("see 'sophon --help'")
            return ExitStatus.usage
        }
        switch invocation.action {
        case .version:
            io.printLine(HelpText.version)
            return ExitStatus.success
        case .help:
            io.stdout.write(HelpText.usage(registry))
            return ExitStatus.success
        case .oneCommand(let name, let arguments):
            let runner = CommandRunner(
                registry: registry,
                context: CommandContext(io: io, mode: .oneCommand, registry: registry),
                output: invocation.json ? .json : .pretty)
            let request = CommandRequest(
                name: name, arguments: arguments, source: ([name] + arguments).joined(separator: " "))
            return await runner.run(request) ? ExitStatus.success : ExitStatus.failure
        case .scripts(let sources):
            if case .file(let path) = sources.first, registry.command(named: path) == nil,
                !FileManager.default.fileExists(atPath: path)
            {
                let suggestion = Suggestions.closest(to: path, in: registry.commandNames).first
                io.printError(
                    "sophon: '\(path)' is neither a command nor a file"
                        + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
                return ExitStatus.usage
            }
            io.printError("sophon: running scripts is not available in this build yet")
            return ExitStatus.usage
        case .standardInput:
            io.printError("sophon: the REPL is not available in this build yet; try 'sophon --help'")
            return ExitStatus.usage
        }
    }
}
