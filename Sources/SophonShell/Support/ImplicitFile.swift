import SophonCore

/// The rule for files the shell reads without being named on the command line: `sophonrc`,
/// `settings.json`, the REPL history, `logs.db` (docs/files.md, "Files the shell reads"). Such a file that is
/// not a regular file is never opened: a FIFO would block start-up until some writer came, and
/// a device such as `/dev/zero` never ends. Files a user names (`source FILE`, `@FILE`, a
/// script, `--replay TAPE`) are read as named, a FIFO included, as `psql`'s `\i` reads one.
enum ImplicitFile {
    /// Why the file at `path` is not read, or `nil` when it is a regular file or missing:
    /// `ROLE 'PATH' is a FIFO, not a regular file` (`a folder`, `a device`, `a socket`; links
    /// followed).
    /// - Parameters:
    ///   - path: the file's path, as shown.
    ///   - role: how the file is named in the message (`sophonrc`, `history file`).
    static func problem(_ path: String, role: String) -> String? {
        AtomicFile.nonRegularKind(at: path).map { "\(role) '\(path)' is \($0), not a regular file" }
    }
}
