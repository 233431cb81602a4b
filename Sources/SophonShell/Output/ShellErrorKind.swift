import SophonCore

/// What kind of error a failed command reports. The raw value is the lowerCamelCase `kind`
/// of `--json` error objects (`{"error": {"kind": "usage", ...}}`); these names are part of
/// the output format and must not change.
enum ShellErrorKind: String, Sendable, Equatable, CaseIterable {
    // The command line or a command's words.
    case usage
    case parseError
    case unknownCommand
    case unknownSetting
    case invalidSetting
    case undefinedVariable
    case missingPath
    case sourceTooDeep
    case interrupted
    case internalError

    // Files, keys and expectations.
    case fileError
    case keyStoreError
    case expectFailed
    /// `test`: at least one script failed.
    case testFailed

    // JSON and schemas.
    case noJSONFound
    case noSchema
    case schemaError
    case schemaMismatch
    case validationFailed

    // Gemini calls.
    case missingAPIKey
    case invalidAPIKey
    case invalidModelID
    case invalidBaseURL
    case transport
    case http
    case rateLimited
    case quotaExhausted
    case modelRetired
    case invalidRequest
    case promptBlocked
    case contentBlocked
    case truncated
    case emptyResponse
    case streamEndedEarly
    case decodingFailed
    case mediaTooLarge
    case mediaUnreadable
    case toolCallFailed
    case toolCallsPending
    case noToolCallsPending
    case unknownTool
    case toolError
    case toolRoundsExceeded

    // Files API (docs/commands.md, "Media").
    case fileProcessingFailed
    case fileProcessingTimedOut
    case fileNotFound
    case fileExpired
    case uploadFailed
    case notDownloadable

    // Bulk runs (`run`, `batch`).
    case invalidInput
    case runFailed
    case batchNotFound
    case batchFailed

    // Comparing models and prompts (`compare`).
    case compareFailed

    // Cost (`set budget`).
    case budgetReached

    // The Interactions API (`set api interactions`, `research`, `agent`).
    case interactionNotFound
    case unknownAgent
    case agentFailed
    case agentNotFound

    // Context caches and Vertex AI (docs/vertex.md).
    case cacheNotFound
    case credentialsError
    case notOnVertex

    // External plugins.
    case pluginNotFound
    case pluginStartFailed
    case pluginExited
    case pluginProtocolError
    case pluginTimeout
    case pluginVersionMismatch
    case pluginRefused
    case pluginError
}

/// An error of a library that says which command failure it is (credentials problems of
/// SophonGemini as `credentialsError`), so the runtime reports it with its kind instead of
/// `internalError`.
protocol CommandFailureConvertible: Error {
    /// The failure to report.
    var commandFailure: CommandFailure { get }
}

/// A command failure with a kind for `--json` (`{"error": {"kind": ..., "message": ...}}`).
struct CommandFailure: Error, Sendable, Equatable {
    /// What kind of error it is (its raw value is the `--json` `kind`).
    var kind: ShellErrorKind
    /// One readable line, without the `error: ` prefix.
    var message: String
    /// What `--json` adds to the error object beside `kind` and `message` (`validate`'s
    /// `violations`, `test`'s `files`).
    var details: [JSONMember] = []
    /// What `--json` adds beside `error`, at the top level of the line: the data a command
    /// that failed still produced (`compare`'s `result`, `differences` and `cost`).
    var envelope: [JSONMember] = []
    /// The status a one-command run (`sophon COMMAND ...`) ends with at once after printing
    /// the failure (`test`'s usage errors: 2); `nil` for the run's usual status (1).
    var exitStatus: Int32? = nil
    /// Where in a text the failure lies, for a caret under it (a `schema` SPEC's syntax
    /// error); `nil` for most failures. The shell shows the caret when ``ArgumentPosition/text``
    /// is the command's raw argument as typed (ShellRuntime, "located").
    var position: ArgumentPosition? = nil

    /// A place in the text a command read: the caret of a runtime error, as parse errors have.
    struct ArgumentPosition: Sendable, Equatable {
        /// The text the offset counts in (the spec as the command got it).
        var text: String
        /// The 0-based offset of the error in ``text``, in characters.
        var offset: Int
        /// The message without its location (`schema: unknown type "strng"`), shown above the
        /// source line and the caret.
        var message: String
    }

    /// The failure as a parse error shows it, a caret under its place, when its ``position``
    /// lies in `argument` (the command's raw argument as it ran) and `origin` places that
    /// argument in its source; `nil` otherwise (the message alone).
    func pointed(in argument: String?, origin: ArgumentOrigin?, commandLine: Int) -> ShellSyntaxError? {
        guard let position, position.text == argument, let origin else { return nil }
        return origin.error(
            position.message, at: position.offset, in: position.text, commandLine: commandLine)
    }

    /// `set NAME: expected EXPECTATION, got 'VALUE'` (`invalidSetting`): the one wording of a
    /// value a setting refuses, for the shell's settings and every plugin's; ` (did you mean
    /// 'X'?)` after it when a word of `values` is close to VALUE.
    static func invalidSetting(
        _ name: String, expected expectation: String, got value: String, among values: [String] = []
    ) -> CommandFailure {
        CommandFailure(
            kind: .invalidSetting,
            message: "set \(name): expected \(expectation), got '\(value)'"
                + ShellMessages.didYouMean(Suggestions.closest(to: value, in: values).first))
    }

    /// What `body` throws, its message after `COMMAND: ` (a prompt file's error under
    /// `compare --prompts` says `compare:`), kind and data kept; a failure of kind `unless` (a
    /// bad line of `run`, listed with its line number instead) goes through unchanged. The one
    /// rule for the command a failure names: the runtime names a built-in command's
    /// subcommand by it (`batch status: no job named 'nope'`, ``ShellRuntime``). A message
    /// that names the command already keeps its one name: one starting `COMMAND: `, and a
    /// usage line (`usage: batch submit INPUT ...`); one starting with the parent command
    /// alone (`batch: ` under `batch submit`) names the subcommand instead.
    static func prefixed<Value>(
        _ command: String, unless kind: ShellErrorKind? = nil, _ body: () throws -> Value
    ) throws -> Value {
        do {
            return try body()
        } catch var failure as CommandFailure where failure.kind != kind {
            let parent = command.split(separator: " ").first.map { "\($0): " } ?? ""
            if failure.message.hasPrefix("\(command): ") || failure.message.hasPrefix("usage: ") {
                throw failure
            } else if command.contains(" "), failure.message.hasPrefix(parent) {
                failure.message = "\(command): " + failure.message.dropFirst(parent.count)
            } else {
                failure.message = "\(command): \(failure.message)"
            }
            throw failure
        }
    }
}
