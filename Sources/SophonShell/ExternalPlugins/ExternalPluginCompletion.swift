/// Tab completion for external plugins' arguments and for `plugin`.
enum ExternalPluginCompletion {
    /// Candidates for the next word of a line whose words so far are `earlier` (the command
    /// first), or `nil` when external plugins have nothing to say about it.
    static func words(_ command: String, _ earlier: [String], host: ExternalPluginHost) -> [String]? {
        if command == "plugin" {
            switch earlier.count {
            case 1: return ["load", "unload"]
            case 2 where earlier[1] == "unload": return host.pluginNames.sorted()
            default: return nil
            }
        }
        return host.completions(for: command)
    }
}
