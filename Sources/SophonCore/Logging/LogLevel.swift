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
