import Foundation
import SophonCore

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
                    members.removeAll { ["command", "args", "env", "trust"].contains($0.key) }
                    if case .object(let ours) = config.jsonValue { members = ours + members }
                    merged = .object(members)
                } else {
                    merged = config.jsonValue
                }
                servers[index] = JSONMember(config.name, merged)
            } else {
                servers.append(JSONMember(config.name, config.jsonValue))
            }
        }
    }

    /// Removes server `name` and writes the file atomically.
    /// - Returns: whether the file had it.
    func remove(_ name: String) throws(MCPConfigError) -> Bool {
        var found = false
        try update { servers in
            found = servers.contains { $0.key == name }
            servers.removeAll { $0.key == name }
        }
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

    private func update(_ change: (inout [JSONMember]) -> Void) throws(MCPConfigError) {
        var top: [JSONMember] = []
        if case .object(let members)? = try document() { top = members }
        var servers: [JSONMember] = []
        if let value = top.last(where: { $0.key == "mcpServers" })?.value {
            guard case .object(let members) = value else {
                throw MCPConfigError("\(path.path): mcpServers: expected an object")
            }
            servers = members
        }
        change(&servers)
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
