import Foundation

/// The command line of one `sophon` run, parsed (docs/language.md, "Runs").
struct Invocation: Sendable, Equatable {
    /// What the run does after the flags.
    enum Action: Sendable, Equatable {
        /// `sophon`: the REPL on a terminal, else commands from stdin.
        case standardInput
        /// `sophon FILE...` and `-c LINE`, in command-line order.
        case scripts([ScriptSource])
        /// `sophon COMMAND ARGS...`.
        case oneCommand(name: String, arguments: [String])
        /// `--version`.
        case version
        /// `--help`.
        case help
        /// `--completions bash|zsh|fish`: print the completion script for that shell.
        case completions(CompletionScript.Shell)
        /// `--man`: print the man page `sophon.1` in roff (hidden; scripts/gen-docs).
        case manPage
        /// `--commands-markdown`: print the command table of docs/commands.md (hidden;
        /// scripts/gen-docs).
        case commandsMarkdown
    }

    /// A script named on the command line.
    enum ScriptSource: Sendable, Equatable {
        /// A file path.
        case file(String)
        /// The N-th `-c` line (1-based), named `-c:N` in messages.
        case line(String, index: Int)
    }

    var action: Action = .standardInput

    /// The long options ``parse(_:isCommand:)`` knows, for "did you mean".
    static var optionNames: [String] { HelpText.flags.flatMap(\.spellings).filter { $0.hasPrefix("--") } }
    var bail = false
    var echo = false
    var json = false
    var model: String?
    var replayTape: String?
    var recordTape: String?
    var runRC = true
    var useHistory = true
    var verbose = false
    /// `--allow-tools`: tools served by plugins and MCP servers run without asking.
    var allowTools = false
    var stayInteractive = false
    /// `--no-log`: exchanges are not logged (docs/logs.md).
    var noLog = false
    /// `--continue`: resume the newest logged conversation (docs/logs.md).
    var continueConversation = false
    /// The arguments as the process received them, as bytes; the `String`s of ``parse(_:isCommand:)``
    /// have each invalid UTF-8 sequence replaced by U+FFFD, so a `-c` line that was not valid
    /// UTF-8 is read again from these and fails with its location, as a script line does.
    var rawArguments: [[UInt8]] = []

    /// The bytes of the argument that `text` was decoded from when they are not valid UTF-8.
    func invalidUTF8Argument(decodedAs text: String) -> [UInt8]? {
        guard text.unicodeScalars.contains("\u{FFFD}") else { return nil }
        return rawArguments.first { bytes in
            String(validating: bytes, as: UTF8.self) == nil && String(decoding: bytes, as: UTF8.self) == text
        }
    }
}

/// A usage error found before anything runs: exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension Invocation {
    /// Parses `arguments` (without the program name). Flags come before the first file or
    /// command word; everything after a command word belongs to the command.
    /// - Parameter isCommand: whether a word names a registered command.
    /// - Throws: ``UsageError`` for an unknown flag or a missing flag argument.
    static func parse(_ arguments: [String], isCommand: (String) -> Bool) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        var scripts: [ScriptSource] = []
        var lineCount = 0
        var index = 0

        func value(for flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "option '\(flag)' needs a value") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--version": return Invocation(action: .version)
            case "--help", "-h": return Invocation(action: .help)
            case "--man": return Invocation(action: .manPage)
            case "--commands-markdown": return Invocation(action: .commandsMarkdown)
            case "--completions":
                let name = try value(for: argument)
                guard let shell = CompletionScript.Shell(rawValue: name) else {
                    throw UsageError(
                        message: "option '--completions' expects bash, zsh or fish, got '\(name)'")
                }
                return Invocation(action: .completions(shell))
            case "--bail": invocation.bail = true
            case "--echo": invocation.echo = true
            case "--json": invocation.json = true
            case "--verbose": invocation.verbose = true
            case "--allow-tools": invocation.allowTools = true
            case "--no-rc", "-X": invocation.runRC = false
            case "--no-history": invocation.useHistory = false
            case "--no-log": invocation.noLog = true
            case "--continue": invocation.continueConversation = true
            case "-i": invocation.stayInteractive = true
            case "--model": invocation.model = try value(for: argument)
            case "--replay": invocation.replayTape = try value(for: argument)
            case "--record": invocation.recordTape = try value(for: argument)
            case "-c":
                lineCount += 1
                scripts.append(.line(try value(for: argument), index: lineCount))
            case "--":
                scripts += arguments[(index + 1)...].map { .file($0) }
                index = arguments.count
                continue
            default:
                if argument.hasPrefix("-"), argument.count > 1 {
                    throw UsageError(message: ShellMessages.unknownOption(argument, among: Self.optionNames))
                }
                if scripts.isEmpty, isCommand(argument) {
                    invocation.action = .oneCommand(
                        name: argument, arguments: Array(arguments[(index + 1)...]))
                    return invocation
                }
                scripts.append(.file(argument))
            }
            index += 1
        }
        if !scripts.isEmpty { invocation.action = .scripts(scripts) }
        return invocation
    }
}

extension ExternalPluginHost {
    /// One-command mode for commands of external plugins (`sophon greet Ada` when a plugin
    /// not named `greet` provides it): when the command line was read as scripts and its
    /// first script is a file that does not exist, the plugins are asked whether one of them
    /// provides a command of that name (starting them, as for an unknown command in a script).
    /// A `.sophon` name is taken for a missing script and asks no plugin.
    /// - Returns: the word, when a plugin provides it (parse the command line again with it
    ///   as a command), else `nil`.
    func commandWordAmongScripts(_ invocation: Invocation) async -> String? {
        guard case .scripts(let scripts) = invocation.action, case .file(let word)? = scripts.first,
            PluginManifest.isValidCommandName(word), !word.hasSuffix(".sophon"),
            !FileManager.default.fileExists(atPath: word)
        else { return nil }
        let command = try? await command(named: word, timeout: ShellSettings().timeout)
        return command == nil ? nil : word
    }
}
