import Foundation

/// Tab completion for the REPL (docs/plugin-protocol.md): command names, file paths after
/// `@`, option values the plugins offer (`--model`), a command's declared options after `-`,
/// each command's own completion, else its subcommands (``CommandOutline/subcommands(_:usage:)``).
struct CompletionProvider: Sendable {
    let registry: PluginRegistry
    /// External plugins: their command names and static argument completions.
    var externalPlugins: ExternalPluginHost?
    /// The folder relative paths complete in (the current directory).
    var directory = FileManager.default.currentDirectoryPath

    /// Candidates for the word before the cursor: see ``LineCompleter``.
    func complete(line: String, cursor: Int) -> [String] {
        let typed = CompletionWord(textBeforeCursor: String(line.prefix(cursor)))
        let word = typed.value
        let earlier = typed.earlier
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
        if let option = earlier.last, let values = registry.optionValues(option) {
            return values.filter { $0.hasPrefix(word) }
        }
        if word.hasPrefix("-"), let options = registry.command(named: command)?.options, !options.isEmpty {
            return CommandOption.completions(word, declared: options)
        }
        let definition = registry.command(named: command)?.completion ?? .none
        let found = candidates(definition, earlier: Array(earlier.dropFirst()), word: word)
        guard found.isEmpty, earlier.count == 1, let usage = registry.command(named: command)?.usage else {
            return found
        }
        // A command that completes nothing there: its subcommands (`batch st` gives `status`).
        return CommandOutline.subcommands(command, usage: usage).filter { $0.hasPrefix(word) }
    }

    /// The candidates for `word` by a command's completion definition.
    private func candidates(_ completion: ArgumentCompletion, earlier: [String], word: String) -> [String] {
        switch completion {
        case .none: []
        case .files: files(matching: word)
        case .words(let words): words.filter { $0.hasPrefix(word) }
        case .custom(let choose): candidates(choose(earlier, registry), earlier: earlier, word: word)
        }
    }

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
