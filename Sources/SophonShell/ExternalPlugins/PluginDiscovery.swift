import Foundation
import SophonCore

/// Finds external plugins: executables named `sophon-plugin-NAME` in the plugins folder
/// (`$XDG_CONFIG_HOME/sophon/plugins/`, or `$SOPHON_HOME/plugins/`) and on `PATH`, like git
/// finds `git-foo` (docs/plugin-protocol.md).
struct PluginDiscovery: Sendable {
    /// The file name prefix of a plugin executable.
    static let prefix = "sophon-plugin-"

    /// Folders searched, in order: the plugins folder, then `PATH`'s entries. For one NAME
    /// the first folder wins.
    var folders: [String]

    /// The folders for an environment (`SOPHON_HOME`, `XDG_CONFIG_HOME`, `HOME`, `PATH`).
    init(environment: [String: String]) {
        var folders = [SophonPaths(environment: environment).pluginsFolder.path]
        for entry in (environment["PATH"] ?? "").split(separator: ":") where entry.hasPrefix("/") {
            folders.append(String(entry))
        }
        self.folders = folders
    }

    /// Searches the given folders.
    init(folders: [String]) {
        self.folders = folders
    }

    /// Every plugin found: its name and the executable's path, the first of each name in
    /// folder order, then by name within a folder. Unreadable folders are skipped.
    func scan() -> [(name: String, path: String)] {
        var found: [(name: String, path: String)] = []
        var seen = Set<String>()
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for file in names.sorted() where file.hasPrefix(Self.prefix) {
                let name = String(file.dropFirst(Self.prefix.count))
                guard PluginManifest.isValidName(name), !seen.contains(name) else { continue }
                let path = folder.hasSuffix("/") ? folder + file : folder + "/" + file
                guard Self.isExecutableFile(path) else { continue }
                seen.insert(name)
                found.append((name, path))
            }
        }
        return found
    }

    /// Whether `path` is a regular file (after symbolic links) this process may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }

    /// Why `path` could not be started, in words: a `#!` interpreter that is missing, a file
    /// that is gone, or a file that is not a program (Foundation's own text names none of them).
    static func startFailureReason(path: String, errorNumber: Int32) -> String {
        let head = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 256) } ?? Data()
        if head.starts(with: Array("#!".utf8)) {
            let line = String(decoding: head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            if let interpreter = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                !isExecutableFile(String(interpreter))
            {
                return "\(path): its interpreter \(interpreter) is missing or not executable"
            }
        }
        switch errorNumber {
        case ENOENT: return "\(path): no such file"
        case EACCES: return "\(path): not executable (permission denied)"
        default: return "\(path): not a program this system can run"
        }
    }

    /// The name messages use for an executable before its handshake: `NAME` for
    /// `sophon-plugin-NAME`, else the file name without its extension.
    static func label(forPath path: String) -> String {
        let file = (path as NSString).lastPathComponent
        if file.hasPrefix(prefix), file.count > prefix.count { return String(file.dropFirst(prefix.count)) }
        return (file as NSString).deletingPathExtension
    }
}
