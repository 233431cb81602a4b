import Foundation
import SophonCore

/// One MCP server as `mcp.json` and `mcp add` describe it (docs/files.md, "mcp.json"): the
/// command that starts it over stdio, its arguments, extra environment variables, and whether
/// its tools run without asking (docs/commands.md, "Consent").
struct MCPServerConfig: Sendable, Equatable {
    /// The server's name (`mcp add NAME`, the key under `mcpServers`).
    var name: String
    /// The executable: a path (`/usr/bin/x`, `./x`) or a name searched on `PATH`.
    var command: String
    /// Its arguments.
    var args: [String] = []
    /// Variables added to the environment it starts with.
    var env: [(String, String)] = []
    /// `"trust": true`: its tools run without consent.
    var trust = false
    /// `"disabled": true` (`mcp disable NAME`): kept but switched off; it never starts and its
    /// tools are not offered until `mcp enable NAME`.
    var disabled = false

    static func == (lhs: MCPServerConfig, rhs: MCPServerConfig) -> Bool {
        lhs.name == rhs.name && lhs.command == rhs.command && lhs.args == rhs.args && lhs.trust == rhs.trust
            && lhs.disabled == rhs.disabled
            && lhs.env.map(\.0) == rhs.env.map(\.0) && lhs.env.map(\.1) == rhs.env.map(\.1)
    }

    /// The members of an entry this shell reads and writes; others are kept as they are.
    static let ownMembers = ["command", "args", "env", "trust", "disabled"]

    /// The server's entry under `mcpServers`: `command`, `args`, `env` when set, `trust` and
    /// `disabled` when true.
    var jsonValue: JSONValue {
        var members = [
            JSONMember("command", .string(command)), JSONMember("args", .array(args.map(JSONValue.string))),
        ]
        if !env.isEmpty {
            members.append(JSONMember("env", .object(env.map { JSONMember($0.0, .string($0.1)) })))
        }
        if trust { members.append(JSONMember("trust", .bool(true))) }
        if disabled { members.append(JSONMember("disabled", .bool(true))) }
        return .object(members)
    }

    /// Reads the entry `value` of server `name`.
    /// - Throws: the reason it cannot be used (no `command`, a member of the wrong type),
    ///   naming the member: `mcpServers.NAME.args: expected an array of strings`.
    init(name: String, value: JSONValue) throws(MCPConfigError) {
        self.name = name
        let path = "mcpServers.\(name)"
        guard case .object = value else { throw MCPConfigError("\(path): expected an object") }
        guard let command = value["command"] else {
            let kind = value["url"] != nil ? " (only stdio servers are supported, not 'url')" : ""
            throw MCPConfigError("\(path): no 'command'\(kind)")
        }
        guard let text = command.stringValue, !text.isEmpty else {
            throw MCPConfigError("\(path).command: expected a non-empty string")
        }
        self.command = text
        if let args = value["args"] {
            guard case .array(let items) = args, items.allSatisfy({ $0.stringValue != nil }) else {
                throw MCPConfigError("\(path).args: expected an array of strings")
            }
            self.args = items.compactMap(\.stringValue)
        }
        if let env = value["env"] {
            guard case .object(let members) = env, members.allSatisfy({ $0.value.stringValue != nil }) else {
                throw MCPConfigError("\(path).env: expected an object of strings")
            }
            self.env = members.map { ($0.key, $0.value.stringValue ?? "") }
        }
        if let trust = value["trust"] {
            guard case .bool(let flag) = trust else {
                throw MCPConfigError("\(path).trust: expected true or false")
            }
            self.trust = flag
        }
        if let disabled = value["disabled"] {
            guard case .bool(let flag) = disabled else {
                throw MCPConfigError("\(path).disabled: expected true or false")
            }
            self.disabled = flag
        }
    }

    /// A server added by `mcp add`.
    init(name: String, command: String, args: [String], trust: Bool) {
        self.name = name
        self.command = command
        self.args = args
        self.trust = trust
    }

    /// `COMMAND ARGS...` as typed (arguments with blanks quoted), for listings.
    var commandLine: String {
        ([command] + args).map { word in
            word.isEmpty || word.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" })
                ? "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" : word
        }.joined(separator: " ")
    }
}

/// Why `mcp.json` or one of its entries cannot be used.
struct MCPConfigError: Error, Sendable, Equatable {
    /// The reason, naming the member or the line and column.
    var message: String

    init(_ message: String) { self.message = message }
}

extension MCPServerConfig {
    /// The executable of `command`: a path as is, else the first match on `PATH`.
    func executable(searching environment: [String: String]) throws(MCPFault) -> String {
        if command.contains("/") {
            guard FileManager.default.fileExists(atPath: command) else {
                throw .startFailed(server: name, reason: "no such file: \(command)")
            }
            guard PluginDiscovery.isExecutableFile(command) else {
                throw .startFailed(server: name, reason: "not an executable file: \(command)")
            }
            return command
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(command)"
            if PluginDiscovery.isExecutableFile(candidate) { return candidate }
        }
        throw .startFailed(server: name, reason: "command '\(command)' not found on PATH")
    }
}
