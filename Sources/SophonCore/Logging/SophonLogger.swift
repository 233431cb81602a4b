import Foundation
import Synchronization

/// Receives every message a ``SophonLogger`` lets through, already redacted: the level and the
/// text (one line, no trailing newline). Called on the logging thread; must be thread-safe.
public typealias LogHandler = @Sendable (LogLevel, String) -> Void

/// Sophon's logger: a replaceable ``LogHandler`` plus a list of secrets to mask.
///
/// Every message passes through ``redact(_:)`` before the handler sees it, so a registered key
/// is never logged (it appears as `••••cD3f`, see ``SecretMask``). The default handler
/// (``standardError(minimumLevel:)``) writes warnings and errors to stderr as `warning: TEXT`
/// and drops the rest. Safe to use from any thread: state is guarded by a `Mutex`, and the
/// handler is called outside the lock (so a handler may log without deadlocking).
public final class SophonLogger: Sendable {
    private struct State {
        var handler: LogHandler
        /// Registered secrets, longest first (so a secret containing another is masked whole).
        var secrets: [String]
    }

    private let state: Mutex<State>

    /// The logger shared by Sophon's components unless one is injected.
    public static let shared = SophonLogger()

    /// Creates a logger.
    ///
    /// - Parameter handler: Where messages go; defaults to warnings and errors on stderr.
    public init(handler: @escaping LogHandler = SophonLogger.standardError()) {
        state = Mutex(State(handler: handler, secrets: []))
    }

    /// The current handler; replace it to capture messages (tests) or show more (`--verbose`).
    public var handler: LogHandler {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// The secrets registered so far, longest first.
    public var secrets: [String] {
        state.withLock { $0.secrets }
    }

    /// Adds a secret to mask in every later message. Empty strings and repeats are ignored.
    ///
    /// - Parameter secret: The exact text to hide (e.g. an API key).
    public func register(secret: String) {
        guard !secret.isEmpty else { return }
        state.withLock { state in
            guard !state.secrets.contains(secret) else { return }
            state.secrets.append(secret)
            state.secrets.sort { $0.count > $1.count }
        }
    }

    /// Replaces every registered secret inside `text` with its mask (``SecretMask/mask(_:)``).
    /// Use it for any text that may echo a key, such as a server's error message.
    ///
    /// - Parameter text: Arbitrary text.
    /// - Returns: The text with secrets masked.
    public func redact(_ text: String) -> String {
        SecretMask.redact(text, secrets: secrets)
    }

    /// Redacts `message` and passes it to the handler with `level`.
    ///
    /// - Parameters:
    ///   - level: The message's severity.
    ///   - message: The text, built only here (one line, no trailing newline).
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        let (handler, secrets) = state.withLock { ($0.handler, $0.secrets) }
        handler(level, SecretMask.redact(message(), secrets: secrets))
    }

    /// Logs at ``LogLevel/debug``.
    /// - Parameter message: The text.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at ``LogLevel/info``.
    /// - Parameter message: The text.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at ``LogLevel/notice``.
    /// - Parameter message: The text.
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at ``LogLevel/warning``.
    /// - Parameter message: The text.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at ``LogLevel/error``.
    /// - Parameter message: The text.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// A handler writing messages at `minimumLevel` or above to stderr as `LEVEL: TEXT\n`
    /// (e.g. `warning: Both GOOGLE_API_KEY and GEMINI_API_KEY are set; using GOOGLE_API_KEY.`),
    /// one `write` per line so concurrent lines do not interleave.
    ///
    /// - Parameter minimumLevel: The least severe level written; defaults to `warning`.
    /// - Returns: The handler.
    public static func standardError(minimumLevel: LogLevel = .warning) -> LogHandler {
        lineWriter(minimumLevel: minimumLevel) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A handler passing `LEVEL: TEXT\n` lines at `minimumLevel` or above to `write`.
    static func lineWriter(minimumLevel: LogLevel, write: @escaping @Sendable (String) -> Void) -> LogHandler
    {
        { level, message in
            guard level >= minimumLevel else { return }
            write(formatLine(level, message))
        }
    }

    /// A handler that drops everything.
    public static let discard: LogHandler = { _, _ in }

    /// The stderr line for a message: `LEVEL: TEXT` and a newline.
    static func formatLine(_ level: LogLevel, _ message: String) -> String {
        "\(level): \(message)\n"
    }
}

/// How important a log message is, from least to most severe (the levels of `os.Logger` and
/// swift-log, less `trace` and `critical`).
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Detail for whoever debugs Sophon itself.
    case debug
    /// What is happening (e.g. `--verbose` request lines).
    case info
    /// Something the user should know that is not a problem (a model resolved to another).
    case notice
    /// Something probably wrong that Sophon worked around (two API key variables set).
    case warning
    /// Something failed.
    case error

    /// The lowercase name used as a message prefix: `debug`, `info`, `notice`, `warning`,
    /// `error`.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// Orders levels by severity (`debug` < `error`).
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
