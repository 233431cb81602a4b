import Foundation

/// Turns a terminal's echo off for the length of one read (`key set` reads the key this
/// way, docs/language.md, "The REPL"), keeping canonical mode so the kernel still edits the line.
enum TerminalEcho {
    /// Runs `body` with `ECHO` off on `descriptor` (the newline still echoes, `ECHONL`), then
    /// restores the settings found, whatever `body` returns. When `descriptor` is not a
    /// terminal, just runs `body`.
    /// - Parameters:
    ///   - descriptor: the terminal's input (e.g. `STDIN_FILENO`).
    ///   - body: the read.
    /// - Returns: what `body` returns.
    static func withEchoDisabled<T>(on descriptor: Int32, _ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(descriptor, &original) == 0 else { return body() }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(descriptor, TCSANOW, &quiet) == 0 else { return body() }
        defer { _ = tcsetattr(descriptor, TCSANOW, &original) }
        return body()
    }
}
