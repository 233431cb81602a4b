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
