import Foundation

extension ExternalPluginHost {
    /// One-command mode for commands of external plugins (`sophon greet Ada` when a plugin
    /// not named `greet` provides it): when the command line was read as scripts and its
    /// first script is a file that does not exist, the plugins are asked whether one of them
    /// provides a command of that name (starting them, as for an unknown command in a script).
    /// A `.sophon` name is taken for a missing script and asks no plugin.
    /// - Returns: the word, when a plugin provides it (parse the command line again with it
    ///   as a command), else `nil`.
    func commandWordAmongScripts(_ invocation: Invocation) async -> String? {
        guard case .scripts(let scripts) = invocation.action, case .file(let word)? = scripts.first,
            PluginManifest.isValidCommandName(word), !word.hasSuffix(".sophon"),
            !FileManager.default.fileExists(atPath: word)
        else { return nil }
        let command = try? await command(named: word, timeout: ShellSettings().timeout)
        return command == nil ? nil : word
    }
}
