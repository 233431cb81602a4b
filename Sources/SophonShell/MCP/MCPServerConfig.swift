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

/// `mcp.json` in the config folder (docs/files.md, "mcp.json"): the MCP servers in the format
/// other MCP hosts use, `{"mcpServers": {"NAME": {"command", "args", "env", "trust"}}}`.
/// Members this shell does not use (other top-level keys, a server's `type`) are kept when
/// `mcp add` and `mcp remove` rewrite the file through the atomic writer.
struct MCPConfigFile: Sendable {
    /// The file's path.
    let path: URL

    /// The file of `paths` (`SOPHON_HOME/mcp.json`, or `~/.config/sophon/mcp.json`).
    init(paths: SophonPaths) {
        path = paths.configFolder.appendingPathComponent("mcp.json", isDirectory: false)
    }

    /// What the file holds.
    struct Contents: Sendable {
        /// The usable servers, in file order.
        var servers: [MCPServerConfig] = []
        /// Entries that cannot be used, with the reason (`mcpServers.x: no 'command'`).
        var invalid: [(name: String, reason: String)] = []
    }

    /// Reads the file; a missing file, or one holding only blanks (`touch mcp.json`), holds no
    /// servers.
    /// - Throws: ``MCPConfigError`` when the file cannot be read, is not JSON (with line and
    ///   column), or `mcpServers` is not an object.
    func read() throws(MCPConfigError) -> Contents {
        guard let document = try document() else { return Contents() }
        var contents = Contents()
        guard let servers = document["mcpServers"] else { return contents }
        guard case .object(let members) = servers else {
            throw MCPConfigError("\(path.path): mcpServers: expected an object")
        }
        for member in members {
            do {
                contents.servers.removeAll { $0.name == member.key }
                contents.servers.append(try MCPServerConfig(name: member.key, value: member.value))
            } catch {
                contents.invalid.append((member.key, error.message))
            }
        }
        return contents
    }

    /// Adds or replaces server `config` (a replaced entry keeps its place) and writes the file
    /// atomically.
    /// - Throws: ``MCPConfigError`` when the file is unreadable or invalid (it is left as is) or
    ///   cannot be written.
    func save(_ config: MCPServerConfig) throws(MCPConfigError) {
        try update { servers in
            if let index = servers.firstIndex(where: { $0.key == config.name }) {
                var merged = servers[index].value
                if case .object(var members) = merged {
                    // Keep the members other hosts use; set ours.
                    members.removeAll { MCPServerConfig.ownMembers.contains($0.key) }
                    if case .object(let ours) = config.jsonValue { members = ours + members }
                    merged = .object(members)
                } else {
                    merged = config.jsonValue
                }
                servers[index] = JSONMember(config.name, merged)
            } else {
                servers.append(JSONMember(config.name, config.jsonValue))
            }
            return true
        }
    }

    /// Removes server `name` and writes the file atomically.
    /// - Returns: whether the file had it.
    func remove(_ name: String) throws(MCPConfigError) -> Bool {
        var found = false
        try update { servers in
            found = servers.contains { $0.key == name }
            servers.removeAll { $0.key == name }
            return found
        }
        return found
    }

    /// Sets `"disabled": true` on server `name` (`mcp disable`), or removes the member (`mcp
    /// enable`), keeping every other member and the entry's place, and writes the file
    /// atomically.
    /// - Returns: whether the file had the server.
    /// - Throws: ``MCPConfigError`` when the file is unreadable or invalid, or the entry is not
    ///   an object (the file is left as is), or the file cannot be written.
    func setDisabled(_ name: String, _ disabled: Bool) throws(MCPConfigError) -> Bool {
        var found = false
        var problem: MCPConfigError?
        try update { servers in
            guard let index = servers.lastIndex(where: { $0.key == name }) else { return false }
            found = true
            guard case .object(var members) = servers[index].value else {
                problem = MCPConfigError("\(path.path): mcpServers.\(name): expected an object")
                return false
            }
            members.removeAll { $0.key == "disabled" }
            if disabled { members.append(JSONMember("disabled", .bool(true))) }
            servers[index] = JSONMember(name, .object(members))
            return true
        }
        if let problem { throw problem }
        return found
    }

    // MARK: - Internals

    private func document() throws(MCPConfigError) -> JSONValue? {
        guard FileManager.default.fileExists(atPath: path.path) else { return nil }
        if let problem = ImplicitFile.problem(path.path, role: "mcp.json") {
            throw MCPConfigError(problem)
        }
        guard let data = FileManager.default.contents(atPath: path.path) else {
            throw MCPConfigError("\(path.path): cannot read the file")
        }
        let text = String(decoding: data, as: UTF8.self)
        // An empty file is an empty store, as for keys.json (docs/files.md, "mcp.json").
        if text.allSatisfy(\.isWhitespace) { return nil }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw MCPConfigError("\(path.path):\(error.line):\(error.column): \(error.message)")
        }
        guard case .object = document else { throw MCPConfigError("\(path.path): expected a JSON object") }
        return document
    }

    /// Applies `change` to the `mcpServers` members and writes the file when it says it changed
    /// them (an unknown name leaves the file, or its absence, as it was).
    private func update(_ change: (inout [JSONMember]) -> Bool) throws(MCPConfigError) {
        var top: [JSONMember] = []
        if case .object(let members)? = try document() { top = members }
        var servers: [JSONMember] = []
        if let value = top.last(where: { $0.key == "mcpServers" })?.value {
            guard case .object(let members) = value else {
                throw MCPConfigError("\(path.path): mcpServers: expected an object")
            }
            servers = members
        }
        guard change(&servers) else { return }
        if let index = top.lastIndex(where: { $0.key == "mcpServers" }) {
            top[index] = JSONMember("mcpServers", .object(servers))
        } else {
            top.append(JSONMember("mcpServers", .object(servers)))
        }
        do {
            try PrivateFiles.write(
                Data((JSONValue.object(top).prettyText + "\n").utf8), to: path, folder: .sophon)
        } catch {
            throw MCPConfigError(error.description)
        }
    }
}
