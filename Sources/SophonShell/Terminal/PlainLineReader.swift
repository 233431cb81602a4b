import Foundation

/// Reads lines from a file descriptor without a line editor: pipes, files, and terminals
/// whose `TERM` is `dumb` or unset (no escape sequences are ever written).
///
/// Reads 64 KiB at a time and splits on `\n`; a `\r` before the `\n` is dropped (CRLF
/// files), a last line without a newline is still a line, and invalid UTF-8 becomes
/// U+FFFD. With `interruptible`, Ctrl-C while waiting returns `.interrupted` (see
/// ``InterruptSignal``); otherwise SIGINT is left to its handler.
///
/// On a terminal in canonical mode the kernel edits the line (Backspace, Ctrl-U, Ctrl-W) and
/// keeps at most ``canonicalLineLimit`` bytes of it, dropping the rest without a word. That
/// editing is all a dumb terminal has, so the reader keeps canonical mode and refuses a line
/// that filled the buffer: it says so (``ShellMessages/terminalLineCut(limit:)``) and prompts
/// again, so a cut line is never run. A Ctrl-D on a terminal ends the one read it answers
/// (`key set`'s prompt, then the REPL goes on); at a pipe or file the end of input is final.
final class PlainLineReader: LineSource {
    private let descriptor: Int32
    private let promptSink: (@Sendable (String) -> Void)?
    private let interruptible: Bool
    private let historyFile: HistoryFile?
    private var buffer: [UInt8] = []
    private var start = 0
    private var reachedEnd = false
    private let isTerminal: Bool
    private static let chunkSize = 65536

    /// The most bytes a line can hold before its newline on a terminal in canonical mode
    /// (Linux: a 4096-byte buffer, newline included; BSD and macOS: `MAX_CANON`, 1024).
    #if os(Linux)
        static let canonicalLineLimit = 4095
    #else
        static let canonicalLineLimit = 1023
    #endif

    /// Creates a reader; reads nothing yet.
    /// - Parameters:
    ///   - descriptor: where lines come from (default standard input); not closed by the
    ///     reader.
    ///   - promptSink: where prompts are written (e.g. stdout for a dumb terminal); nil
    ///     writes no prompt (pipes and files).
    ///   - interruptible: whether Ctrl-C while waiting returns `.interrupted` (needs
    ///     ``InterruptSignal/installInteractiveHandler()``).
    ///   - historyFile: where ``record(_:)`` appends entries (a dumb terminal still keeps
    ///     history); nil for pipes and files.
    init(
        descriptor: Int32 = STDIN_FILENO, promptSink: (@Sendable (String) -> Void)? = nil,
        interruptible: Bool = false, historyFile: HistoryFile? = nil
    ) {
        self.descriptor = descriptor
        self.promptSink = promptSink
        self.interruptible = interruptible
        self.historyFile = historyFile
        isTerminal = isatty(descriptor) == 1
    }

    /// Reads a line with echo off when reading a terminal (interruptible mode), else the next
    /// line as ``readLine(prompt:)`` does (no prompt without a prompt sink). A Ctrl-C there
    /// interrupts the running command (``InterruptSignal/interruptRunningCommand()``).
    func readSecret(prompt: String) -> LineInput {
        guard interruptible else { return readLine(prompt: prompt) }
        let result = TerminalEcho.withEchoDisabled(on: descriptor) { readLine(prompt: prompt) }
        if result == .interrupted { InterruptSignal.interruptRunningCommand() }
        return result
    }

    /// Reads an answer as ``readLine(prompt:)`` does (shown as typed); a Ctrl-C there interrupts
    /// the running command (``InterruptSignal/interruptRunningCommand()``).
    func readAnswer(prompt: String) -> LineInput {
        let result = readLine(prompt: prompt)
        if interruptible, result == .interrupted { InterruptSignal.interruptRunningCommand() }
        return result
    }

    /// Appends the entry to the history file, if the reader has one.
    /// - Throws: `HistoryFileError` from ``HistoryFile/append(_:)``.
    func record(_ entry: String) throws(HistoryFileError) {
        try historyFile?.append(entry)
    }

    /// Reads the next line, writing `prompt` to the prompt sink first when there is one.
    /// - Returns: the line without `\n` or `\r\n`; `.endOfInput` at end of file or on a
    ///   read error; `.interrupted` after Ctrl-C when interruptible.
    func readLine(prompt: String) -> LineInput {
        promptSink?(prompt)
        while true {
            if let line = nextBufferedLine() {
                guard line.bytes >= Self.canonicalLineLimit, readsCanonically() else {
                    return .line(line.text)
                }
                let notice = ShellMessages.terminalLineCut(limit: Self.canonicalLineLimit) + "\n"
                if let promptSink {
                    promptSink(notice + prompt)
                } else {
                    FileDescriptorSink(descriptor: STDERR_FILENO).write(notice)
                }
                continue
            }
            if reachedEnd {
                guard start < buffer.count else {
                    if isTerminal { reachedEnd = false }  // One Ctrl-D ends one read.
                    return .endOfInput
                }
                let rest = Self.text(buffer[start...])
                start = buffer.count
                if isTerminal { reachedEnd = false }
                return .line(rest)
            }
            if interruptible, InterruptSignal.waitForInput(on: descriptor) == .interrupted {
                return interrupt()
            }
            if !fill(), interruptible, InterruptSignal.takePending() {
                return interrupt()
            }
        }
    }

    /// Drops what was buffered of the current line and ends the prompt's line.
    private func interrupt() -> LineInput {
        if let newline = newlineIndex() {
            start = newline + 1
        } else {
            start = buffer.count
        }
        promptSink?("\n")
        return .interrupted
    }

    /// The next complete line in the buffer and its length in bytes, consuming it; nil when
    /// none is complete.
    private func nextBufferedLine() -> (text: String, bytes: Int)? {
        guard let newline = newlineIndex() else { return nil }
        let line = Self.text(buffer[start..<newline])
        defer { start = newline + 1 }
        return (line, newline - start)
    }

    /// Whether the descriptor is a terminal in canonical mode (the kernel keeps the line).
    private func readsCanonically() -> Bool {
        guard isTerminal else { return false }
        var settings = termios()
        return tcgetattr(descriptor, &settings) == 0 && settings.c_lflag & tcflag_t(ICANON) != 0
    }

    private func newlineIndex() -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress,
                let found = memchr(base + start, 0x0A, bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Reads one chunk. Returns false when the read was interrupted by a signal.
    private func fill() -> Bool {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.chunkSize))
        let count = buffer.withUnsafeMutableBytes { raw in
            read(descriptor, raw.baseAddress! + oldCount, Self.chunkSize)
        }
        let failure = errno
        buffer.removeSubrange((oldCount + max(count, 0))...)
        if count == 0 { reachedEnd = true }
        if count < 0 {
            if failure == EINTR { return false }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, -1)  // A non-blocking descriptor: wait, do not spin.
                return true
            }
            reachedEnd = true
        }
        return true
    }

    /// Decodes a line, dropping one `\r` at its end.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var line = bytes
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}

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
