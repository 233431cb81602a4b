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
    /// The options of the `sophon` command line: ``HelpText/flags`` (what `--help` lists), then
    /// the ones it does not list: `-c LINE` (any number, in order among the files), `-i`, `-h`,
    /// and `--man` and `--commands-markdown` for scripts/gen-docs.
    static let declared =
        HelpText.flags + [
            CommandOption(
                name: "-c", value: "LINE", help: "run LINE as a script", repetition: .any),
            CommandOption(name: "-i", help: "stay interactive after the scripts"),
            CommandOption(name: "-h", help: "print the help"),
            CommandOption(name: "--man", help: "print the man page"),
            CommandOption(name: "--commands-markdown", help: "print the command table of docs/commands.md"),
        ]

    /// Parses `arguments` (without the program name) by ``declared``, with the one option
    /// parser (``CommandOption/parse(_:as:declared:endsOptions:)``). Flags and files mix, `-c`
    /// lines keep their place among the files, and `--` makes every word after it a file; a
    /// command word before any file or `-c` line starts one-command mode, and every word after
    /// it belongs to the command.
    /// - Parameter isCommand: whether a word names a registered command.
    /// - Throws: ``UsageError`` for an unknown flag, a missing flag argument or a flag given
    ///   twice.
    static func parse(_ arguments: [String], isCommand: (String) -> Bool) throws(UsageError) -> Invocation {
        let parsed: ParsedOptions
        do {
            parsed = try CommandOption.parse(arguments, declared: declared) { word, parsed in
                parsed.operands.isEmpty && !parsed.has("-c") && isCommand(word)
            }
        } catch {
            throw UsageError(message: error.message(command: nil))
        }
        for given in parsed.given {
            switch given.name {
            case "--version": return Invocation(action: .version)
            case "--help", "-h": return Invocation(action: .help)
            case "--man": return Invocation(action: .manPage)
            case "--commands-markdown": return Invocation(action: .commandsMarkdown)
            case "--completions":
                guard let shell = CompletionScript.Shell(rawValue: given.value) else {
                    throw UsageError(
                        message: "option '--completions' expects bash, zsh or fish, got '\(given.value)'")
                }
                return Invocation(action: .completions(shell))
            default: continue
            }
        }
        var invocation = Invocation()
        invocation.bail = parsed.has("--bail")
        invocation.echo = parsed.has("--echo")
        invocation.json = parsed.has("--json")
        invocation.verbose = parsed.has("--verbose")
        invocation.allowTools = parsed.has("--allow-tools")
        invocation.runRC = !parsed.has("--no-rc")
        invocation.useHistory = !parsed.has("--no-history")
        invocation.noLog = parsed.has("--no-log")
        invocation.continueConversation = parsed.has("--continue")
        invocation.stayInteractive = parsed.has("-i")
        invocation.model = parsed.value("--model")
        invocation.replayTape = parsed.value("--replay")
        invocation.recordTape = parsed.value("--record")
        if let command = parsed.rest.first {
            invocation.action = .oneCommand(name: command, arguments: Array(parsed.rest.dropFirst()))
            return invocation
        }
        var scripts: [ScriptSource] = []
        var files = parsed.operands[...]
        for (index, line) in parsed.given.filter({ $0.name == "-c" }).enumerated() {
            while scripts.count - index < line.operandsBefore, let file = files.popFirst() {
                scripts.append(.file(file))
            }
            scripts.append(.line(line.value, index: index + 1))
        }
        scripts += files.map { .file($0) }
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
