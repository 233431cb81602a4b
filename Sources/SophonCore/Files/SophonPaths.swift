import Foundation

/// Where Sophon keeps its files, resolved from an environment (never from global state, so tests
/// can pass their own and never touch the real home folder).
///
/// Rules, in order:
/// 1. `SOPHON_HOME` set and not empty: one flat folder holds everything (`keys.json`,
///    `sophonrc`, `settings.json`, `history`, `plugins/`); config and state folders are both it.
/// 2. Otherwise, per the XDG Base Directory specification: config in `$XDG_CONFIG_HOME/sophon`
///    (default `$HOME/.config/sophon`), state in `$XDG_STATE_HOME/sophon` (default
///    `$HOME/.local/state/sophon`). An empty or relative XDG value is ignored, as the
///    specification requires.
///
/// A relative `SOPHON_HOME` is resolved against the current directory. Without `HOME` the
/// account's home folder from the system is used.
public struct SophonPaths: Sendable, Hashable {
    /// The folder of `keys.json`, `sophonrc`, `settings.json` and `plugins/`.
    public let configFolder: URL
    /// The folder of `history`.
    public let stateFolder: URL
    /// Whether `SOPHON_HOME` chose one flat folder for everything.
    public let isFlat: Bool

    /// Resolves the folders from an environment.
    ///
    /// - Parameter environment: Variables to read (`SOPHON_HOME`, `XDG_CONFIG_HOME`,
    ///   `XDG_STATE_HOME`, `HOME`); defaults to this process's environment.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        if let home = value("SOPHON_HOME") {
            let folder = URL(fileURLWithPath: home, isDirectory: true).standardizedFileURL
            configFolder = folder
            stateFolder = folder
            isFlat = true
            return
        }
        func xdg(_ name: String) -> String? {
            guard let text = value(name), text.hasPrefix("/") else { return nil }
            return text
        }
        let home = value("HOME") ?? NSHomeDirectory()
        let homeURL = URL(fileURLWithPath: home, isDirectory: true)
        let configBase =
            xdg("XDG_CONFIG_HOME").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? homeURL.appendingPathComponent(".config", isDirectory: true)
        let stateBase =
            xdg("XDG_STATE_HOME").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? homeURL.appendingPathComponent(".local/state", isDirectory: true)
        configFolder = configBase.appendingPathComponent("sophon", isDirectory: true).standardizedFileURL
        stateFolder = stateBase.appendingPathComponent("sophon", isDirectory: true).standardizedFileURL
        isFlat = false
    }

    /// `keys.json`: the file key store (a JSON object of account -> secret, mode 0600).
    public var keysFile: URL { configFolder.appendingPathComponent("keys.json", isDirectory: false) }
    /// `sophonrc`: commands run when the shell starts (unless `--no-rc`).
    public var rcFile: URL { configFolder.appendingPathComponent("sophonrc", isDirectory: false) }
    /// `settings.json`: persisted settings (`{"model": ID}`).
    public var settingsFile: URL { configFolder.appendingPathComponent("settings.json", isDirectory: false) }
    /// `history`: the line editor's history (libedit format), in the state folder.
    public var historyFile: URL { stateFolder.appendingPathComponent("history", isDirectory: false) }
    /// `plugins/`: external plugin executables (`sophon-plugin-NAME`).
    public var pluginsFolder: URL { configFolder.appendingPathComponent("plugins", isDirectory: true) }
}
