import Foundation
import SophonCore
import Testing

@testable import SophonShell

/// `mcp.json` (docs/files.md, "mcp.json"): reading, and rewriting that keeps other members.
@Suite struct MCPConfigFileTests {
    let folder: URL
    let file: MCPConfigFile

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sophon-mcp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = MCPConfigFile(paths: SophonPaths(environment: ["SOPHON_HOME": folder.path]))
    }

    func write(_ text: String) throws { try Data(text.utf8).write(to: file.path) }

    func text() -> String { (try? String(contentsOf: file.path, encoding: .utf8)) ?? "" }

    @Test func aMissingFileHasNoServers() throws {
        #expect(try file.read().servers.isEmpty)
    }

    @Test func entriesAreReadAndBadOnesGetAReason() throws {
        try write(
            #"{"mcpServers": {"a": {"command": "x", "args": ["1"], "env": {"K": "v"}, "trust": true}, "#
                + #""web": {"url": "http://h"}, "b": {"command": "y", "args": [1]}, "c": {"command": "z", "trust": "yes"}}}"#
        )
        let contents = try file.read()
        #expect(contents.servers.map(\.name) == ["a"])
        #expect(contents.servers[0].args == ["1"])
        #expect(contents.servers[0].env.map(\.0) == ["K"])
        #expect(contents.servers[0].trust)
        #expect(contents.invalid.map(\.name) == ["web", "b", "c"])
        #expect(
            contents.invalid.map(\.reason) == [
                "mcpServers.web: no 'command' (only stdio servers are supported, not 'url')",
                "mcpServers.b.args: expected an array of strings",
                "mcpServers.c.trust: expected true or false",
            ])
    }

    @Test func notJSONIsAnErrorWithLineAndColumn() throws {
        try write("{\n  \"mcpServers\": [\n")
        #expect(throws: MCPConfigError.self) { try file.read() }
        do {
            _ = try file.read()
        } catch {
            #expect(error.message.hasPrefix("\(file.path.path):3:1: "))
        }
        // A broken file is never rewritten.
        #expect(throws: MCPConfigError.self) {
            try file.save(MCPServerConfig(name: "n", command: "c", args: [], trust: false))
        }
        #expect(text() == "{\n  \"mcpServers\": [\n")
    }

    @Test func saveAndRemoveKeepOtherMembers() throws {
        try write(
            #"{"other": 1, "mcpServers": {"a": {"type": "stdio", "command": "old", "args": []}, "b": {"command": "b"}}}"#
        )
        try file.save(MCPServerConfig(name: "a", command: "new", args: ["--x"], trust: true))
        try file.save(MCPServerConfig(name: "c", command: "c", args: [], trust: false))
        #expect(try file.remove("b"))
        #expect(try !file.remove("nope"))
        #expect(
            text() == """
                {
                  "other": 1,
                  "mcpServers": {
                    "a": {
                      "command": "new",
                      "args": [
                        "--x"
                      ],
                      "trust": true,
                      "type": "stdio"
                    },
                    "c": {
                      "command": "c",
                      "args": []
                    }
                  }
                }

                """)
    }

    /// `mcp disable` sets `"disabled": true` and `mcp enable` removes it, keeping the other
    /// members and the entry's place; an unknown name leaves the file (or its absence) as is;
    /// `mcp add` over a disabled server enables it.
    @Test func disableAndEnableKeepOtherMembers() throws {
        #expect(try !file.setDisabled("a", true))
        #expect(!FileManager.default.fileExists(atPath: file.path.path))
        try write(#"{"mcpServers": {"a": {"type": "stdio", "command": "x"}, "b": {"command": "y"}}}"#)
        #expect(try file.setDisabled("a", true))
        #expect(try file.setDisabled("b", true))
        #expect(try file.setDisabled("b", false))
        #expect(try !file.setDisabled("nope", true))
        #expect(
            text() == """
                {
                  "mcpServers": {
                    "a": {
                      "type": "stdio",
                      "command": "x",
                      "disabled": true
                    },
                    "b": {
                      "command": "y"
                    }
                  }
                }

                """)
        let contents = try file.read()
        #expect(contents.servers.map(\.name) == ["a", "b"])
        #expect(contents.servers.map(\.disabled) == [true, false])
        try file.save(MCPServerConfig(name: "a", command: "x", args: [], trust: false))
        #expect(try file.read().servers.map(\.disabled) == [false, false])
        try write(#"{"mcpServers": {"c": {"command": "z", "disabled": "yes"}}}"#)
        #expect(try file.read().invalid.map(\.reason) == ["mcpServers.c.disabled: expected true or false"])
    }
}
