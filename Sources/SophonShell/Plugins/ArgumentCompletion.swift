/// What Tab offers for a command's arguments (part of the command's definition).
enum ArgumentCompletion: Sendable {
    /// Nothing.
    case none
    /// File paths.
    case files
    /// These words.
    case words([String])
    /// Chosen by the argument words before the cursor (without the command name) and the
    /// loaded plugins.
    case custom(@Sendable (_ earlier: [String], _ registry: PluginRegistry) -> ArgumentCompletion)
}
