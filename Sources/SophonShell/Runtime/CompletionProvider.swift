import Foundation
import SophonGemini

/// Tab completion for the REPL (PRODUCT.md §4 "Plugins"): command names, setting names,
/// model names, and file paths after `@` and for `source`, `save` and `attach`.
struct CompletionProvider: Sendable {
    let registry: PluginRegistry
    /// External plugins: their command names and static argument completions.
    var externalPlugins: ExternalPluginHost?
    /// The folder relative paths complete in (the current directory).
    var directory = FileManager.default.currentDirectoryPath

    /// Commands whose arguments are file paths.
    static let fileCommands: Set<String> = ["source", "save", "attach"]

    /// Candidates for the word before the cursor: see ``LineCompleter``.
    func complete(line: String, cursor: Int) -> [String] {
        let before = String(line.prefix(cursor))
        let word = String(LineCompletion.word(before: before))
        let earlier = before.dropLast(word.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(
            String.init)
        if word.hasPrefix("@") {
            return files(matching: String(word.dropFirst())).map { "@" + $0 }
        }
        guard let command = earlier.first else {
            let external = externalPlugins?.completionNames() ?? []
            return Array(Set(registry.commandNames + external)).filter { $0.hasPrefix(word) }.sorted()
        }
        if let words = externalPlugins.flatMap({ ExternalPluginCompletion.words(command, earlier, host: $0) })
        {
            return words.filter { $0.hasPrefix(word) }
        }
        if command == "plugin", earlier.count == 2, earlier[1] == "load" { return files(matching: word) }
        if earlier.last == "--model" || (command == "set" && earlier.count == 2 && earlier[1] == "model") {
            return Self.modelNames.filter { $0.hasPrefix(word) }
        }
        if ["set", "show"].contains(command), earlier.count == 1 {
            let extra = command == "show" ? ["usage"] : []
            return (ShellSettings.names + extra).filter { $0.hasPrefix(word) }
        }
        if command == "help", earlier.count == 1 {
            return registry.commandNames.filter { $0.hasPrefix(word) }.sorted()
        }
        if Self.fileCommands.contains(command) {
            return files(matching: word)
        }
        return []
    }

    /// Preset names and IDs, for `set model` and `--model`.
    static let modelNames: [String] = GeminiModel.allPresets.map(\.id).sorted()

    /// Paths starting with `prefix` (relative to ``directory`` unless absolute or `~/`);
    /// folders end in `/`. Hidden files only when the prefix names a dot.
    func files(matching prefix: String) -> [String] {
        let expanded = prefix.hasPrefix("~/") ? NSHomeDirectory() + prefix.dropFirst() : prefix
        let slash = expanded.lastIndex(of: "/")
        let folderPart = slash.map { String(expanded[...$0]) } ?? ""
        let namePart = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        let folder = folderPart.hasPrefix("/") ? folderPart : directory + "/" + folderPart
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let typedFolder = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
        return names.filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + name, isDirectory: &isDirectory)
                return typedFolder + name + (isDirectory.boolValue ? "/" : "")
            }
    }
}
