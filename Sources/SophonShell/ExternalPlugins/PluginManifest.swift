import Foundation
import SophonCore

/// What a plugin said about itself in its handshake reply (docs/plugin-protocol.md,
/// "Handshake"): its name, version, the protocol version it chose, and its commands.
struct PluginManifest: Sendable, Equatable {
    /// One command the plugin provides.
    struct Command: Sendable, Equatable {
        /// The word that invokes it.
        var name: String
        /// The usage line (`csv [COLUMN...]`); the name alone when the plugin gave none.
        var usage: String
        /// A one-line summary for `help` and `plugins`: `summary`, else the first line of `help`.
        var summary: String
        /// Longer help text printed by `help NAME`, or empty.
        var help: String
        /// Words Tab offers for the command's arguments.
        var completions: [String]
    }

    /// The plugin's name (`csv`).
    var name: String
    /// Its version text (`1.0.0`), shown by `plugins`.
    var version: String
    /// The protocol version it chose.
    var protocolVersion: Int
    /// Its commands, in the order it listed them.
    var commands: [Command]
    /// The functions the plugin serves to the model (`tools` in the hello reply,
    /// docs/plugin-protocol.md): name, description, JSON Schema of the arguments.
    var tools: [Tool] = []

    /// One tool a plugin declares.
    struct Tool: Sendable, Equatable {
        /// The function name the model calls.
        var name: String
        /// What it does.
        var description: String
        /// The JSON Schema of the arguments object, when given.
        var parameters: JSONValue?
    }

    /// Reads a handshake reply.
    /// - Parameters:
    ///   - reply: the reply object (its `type` is `hello`).
    ///   - plugin: the name messages use until the reply names the plugin.
    /// - Throws: ``PluginFault/versionMismatch(plugin:pluginVersion:shellVersions:)`` when
    ///   `protocol` is not one of ``PluginProtocol/versions``, ``PluginFault/badHandshake(plugin:reason:)``
    ///   for a missing or ill-typed field.
    init(reply: JSONValue, plugin: String) throws(PluginFault) {
        func bad(_ reason: String) -> PluginFault { .badHandshake(plugin: plugin, reason: reason) }
        guard let chosen = reply["protocol"] else { throw bad("missing \"protocol\"") }
        guard case .number(let number) = chosen, let version = Int(number.text) else {
            throw .versionMismatch(
                plugin: plugin, pluginVersion: chosen.compactText, shellVersions: PluginProtocol.versions)
        }
        guard PluginProtocol.versions.contains(version) else {
            throw .versionMismatch(
                plugin: plugin, pluginVersion: String(version), shellVersions: PluginProtocol.versions)
        }
        guard let name = reply["name"]?.stringValue, PluginManifest.isValidName(name) else {
            throw bad("\"name\" must be a string of letters, digits, '-' and '_'")
        }
        let pluginVersion = reply["version"]?.stringValue ?? ""
        guard case .array(let list)? = reply["commands"] else { throw bad("missing \"commands\" array") }
        var commands: [Command] = []
        for (index, item) in list.enumerated() {
            guard case .object = item, let commandName = item["name"]?.stringValue,
                PluginManifest.isValidCommandName(commandName)
            else { throw bad("commands[\(index)] needs a \"name\" that is one word") }
            for key in ["usage", "summary", "help"] {
                if let field = item[key], field.stringValue == nil {
                    throw bad("commands[\(index)].\(key) must be a string")
                }
            }
            var completions: [String] = []
            if let field = item["completions"] {
                guard case .array(let words) = field, words.allSatisfy({ $0.stringValue != nil }) else {
                    throw bad("commands[\(index)].completions must be an array of strings")
                }
                completions = words.compactMap(\.stringValue)
            }
            let help = item["help"]?.stringValue ?? ""
            let firstHelpLine = help.split(separator: "\n", omittingEmptySubsequences: false).first.map(
                String.init)
            commands.append(
                Command(
                    name: commandName, usage: item["usage"]?.stringValue ?? commandName,
                    summary: item["summary"]?.stringValue ?? firstHelpLine ?? "", help: help,
                    completions: completions))
        }
        var tools: [Tool] = []
        if let field = reply["tools"] {
            guard case .array(let items) = field else { throw bad("\"tools\" must be an array") }
            for (index, item) in items.enumerated() {
                // The name is checked where the declaration is built (the Tools plugin):
                // a name the API refuses leaves the tool not offered.
                guard case .object = item, let toolName = item["name"]?.stringValue, !toolName.isEmpty
                else { throw bad("tools[\(index)] needs a \"name\" string") }
                if let parameters = item["parameters"], case .object = parameters {
                } else if item["parameters"] != nil {
                    throw bad("tools[\(index)].parameters must be a JSON Schema object")
                }
                tools.append(
                    Tool(
                        name: toolName, description: item["description"]?.stringValue ?? "",
                        parameters: item["parameters"]))
            }
        }
        self.name = name
        self.version = pluginVersion
        protocolVersion = version
        self.commands = commands
        self.tools = tools
    }

    /// Creates a manifest directly (tests).
    init(name: String, version: String, protocolVersion: Int, commands: [Command]) {
        self.name = name
        self.version = version
        self.protocolVersion = protocolVersion
        self.commands = commands
    }

    /// Plugin names: `[A-Za-z0-9_-]+` (the `NAME` of `sophon-plugin-NAME`).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCIIWordCharacter || $0 == "-" }
    }

    /// Command names: a bare word the parser reads as a command, `[A-Za-z0-9_][A-Za-z0-9_.-]*`.
    static func isValidCommandName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIIWordCharacter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIIWordCharacter || $0 == "-" || $0 == "." }
    }
}

extension Unicode.Scalar {
    /// `[A-Za-z0-9_]`.
    fileprivate var isASCIIWordCharacter: Bool {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }
}

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
