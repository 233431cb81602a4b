/// Why an external plugin could not serve a request (docs/plugin-protocol.md, "Faults").
/// Every message names the plugin; the shell and its session carry on after any of them.
enum PluginFault: Error, Sendable, Equatable {
    /// No executable to start: `plugin load` of a missing or non-executable file, or a
    /// plugin name that is neither discovered nor loaded.
    case notFound(String)
    /// The executable could not be started (`Process.run()` failed).
    case startFailed(plugin: String, reason: String)
    /// The process ended (or closed its output) while a request was waiting.
    case exited(plugin: String, end: PluginProcessEnd?, during: String)
    /// A line on its stdout is not a JSON object.
    case notJSON(plugin: String, line: String)
    /// A JSON line that breaks the protocol (missing `id`, unknown `type`, bad field).
    case badMessage(plugin: String, reason: String)
    /// A reply for a request id the shell is not waiting for.
    case unknownID(plugin: String, received: String, expected: Int?)
    /// No reply within the session's `timeout`; the process was killed.
    case timedOut(plugin: String, during: String, after: String)
    /// The handshake chose a protocol version the shell does not speak.
    case versionMismatch(plugin: String, pluginVersion: String, shellVersions: [Int])
    /// The plugin answered the handshake with an error.
    case refused(plugin: String, message: String)
    /// The handshake was malformed (missing name, bad command list, wrong name).
    case badHandshake(plugin: String, reason: String)
    /// The plugin answered a call with an error reply: an ordinary command failure.
    case commandFailed(command: String, message: String)

    /// The error as the shell reports it: a kind for `--json` and one readable line.
    var failure: CommandFailure {
        CommandFailure(kind: kind, message: message)
    }

    /// lowerCamelCase kind for `--json` error objects.
    var kind: ShellErrorKind {
        switch self {
        case .notFound: .pluginNotFound
        case .startFailed: .pluginStartFailed
        case .exited: .pluginExited
        case .notJSON, .badMessage, .unknownID, .badHandshake: .pluginProtocolError
        case .timedOut: .pluginTimeout
        case .versionMismatch: .pluginVersionMismatch
        case .refused: .pluginRefused
        case .commandFailed: .pluginError
        }
    }

    /// One line, without the `error: ` prefix.
    var message: String {
        switch self {
        case .notFound(let what):
            return what
        case .startFailed(let plugin, let reason):
            return "plugin '\(plugin)' could not start: \(reason)"
        case .exited(let plugin, let end, let during):
            switch end {
            case .status(let code)?: return "plugin '\(plugin)' exited with status \(code) \(during)"
            case .signal(let number)?: return "plugin '\(plugin)' was killed by signal \(number) \(during)"
            case nil: return "plugin '\(plugin)' closed its output \(during)"
            }
        case .notJSON(let plugin, let line):
            return "plugin '\(plugin)' wrote a line that is not JSON: \(Self.quoted(line))"
        case .badMessage(let plugin, let reason):
            return "plugin '\(plugin)' sent an invalid message: \(reason)"
        case .unknownID(let plugin, let received, let expected):
            let waiting = expected.map { "request \($0) was waiting" } ?? "no request was waiting"
            return "plugin '\(plugin)' answered unknown request id \(received) (\(waiting))"
        case .timedOut(let plugin, let during, let after):
            return "plugin '\(plugin)' did not answer \(during) within \(after); it was stopped"
        case .versionMismatch(let plugin, let pluginVersion, let shellVersions):
            let ours = shellVersions.map(String.init).joined(separator: ", ")
            return "plugin '\(plugin)' speaks protocol version \(pluginVersion); sophon speaks version "
                + ours
        case .refused(let plugin, let message):
            return "plugin '\(plugin)' refused the handshake: \(message)"
        case .badHandshake(let plugin, let reason):
            return "plugin '\(plugin)' sent an invalid handshake: \(reason)"
        case .commandFailed(let command, let message):
            return "\(command): \(message)"
        }
    }

    /// `text` in single quotes, cut to 80 characters, control characters escaped.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(80) {
            shown +=
                scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "'" + shown + (text.unicodeScalars.count > 80 ? "...'" : "'")
    }
}

/// How a plugin process ended.
enum PluginProcessEnd: Sendable, Equatable {
    /// `exit(code)`.
    case status(Int32)
    /// Killed by a signal.
    case signal(Int32)
}
