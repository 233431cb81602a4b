import Foundation
import SophonCore

/// Reads a plugin's stdout and stderr on one thread of its own, line by line.
///
/// Both pipes are watched with `poll`, and stderr is always emptied before a stdout line is
/// handed on: a plugin that writes a note to stderr and then its reply to stdout has the note
/// printed before the shell acts on the reply, so transcripts are stable. The reader owns both
/// descriptors and closes them when it ends.
struct PluginOutputReader: Sendable {
    /// What the reader saw on stdout.
    enum Event: Sendable, Equatable {
        /// One line, without its `\n` (and without a `\r` before it); invalid UTF-8 is
        /// replaced by U+FFFD, so the line then fails JSON parsing as garbage should.
        case line(String)
        /// A line longer than ``PluginProtocol/maximumLineBytes``: the reader stops reading
        /// stdout (the connection kills the plugin).
        case lineTooLong
        /// stdout reached end of file (after stderr was emptied, or one second passed).
        case end
    }

    /// The read end of the plugin's stdout.
    var stdout: Int32
    /// The read end of the plugin's stderr.
    var stderr: Int32
    /// Called with each stdout event, on the reader thread.
    var onEvent: @Sendable (Event) -> Void
    /// Called with each stderr line (no newline), on the reader thread.
    var onErrorLine: @Sendable (String) -> Void

    /// How long stderr is still read after stdout ended (a grandchild may hold it open).
    static let stderrGrace: Duration = .seconds(1)

    /// Starts the reader thread.
    func start(name: String) {
        let reader = self
        let thread = Thread { reader.run() }
        thread.name = "sophon-plugin-" + name
        thread.start()
    }

    /// The poll loop; returns when stdout ended and stderr ended or its grace passed.
    func run() {
        var outBuffer: [UInt8] = []
        var errBuffer: [UInt8] = []
        var outOpen = true
        var errOpen = true
        var drainUntil: ContinuousClock.Instant?
        var chunk = [UInt8](repeating: 0, count: 65536)
        while outOpen || errOpen {
            var timeout: Int32 = -1
            if !outOpen {
                let deadline = drainUntil ?? ContinuousClock.now + Self.stderrGrace
                drainUntil = deadline
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                timeout = Int32(clamping: left.wholeMilliseconds)
                timeout = max(timeout, 1)
            }
            var descriptors = [
                pollfd(fd: errOpen ? stderr : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: outOpen ? stdout : -1, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&descriptors, 2, timeout)
            if count < 0 {
                if errno == EINTR { continue }
                break
            }
            if count == 0 { break }
            if errOpen, descriptors[0].revents != 0 {
                let read = Self.read(stderr, into: &chunk)
                if read <= 0 {
                    errOpen = false
                } else {
                    errBuffer.append(contentsOf: chunk[0..<read])
                    for line in Self.takeLines(from: &errBuffer) { onErrorLine(line) }
                }
                continue  // stderr first: empty it before looking at stdout again
            }
            if outOpen, descriptors[1].revents != 0 {
                let read = Self.read(stdout, into: &chunk)
                if read <= 0 {
                    outOpen = false
                    continue
                }
                outBuffer.append(contentsOf: chunk[0..<read])
                for line in Self.takeLines(from: &outBuffer) { onEvent(.line(line)) }
                if outBuffer.count > PluginProtocol.maximumLineBytes {
                    outBuffer = []
                    outOpen = false
                    onEvent(.lineTooLong)
                }
            }
        }
        if !errBuffer.isEmpty { onErrorLine(String(decoding: errBuffer, as: UTF8.self)) }
        close(stdout)
        close(stderr)
        onEvent(.end)
    }

    /// `read(2)`, retried on `EINTR`; the byte count, 0 at end of file, -1 on error.
    private static func read(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        (try? buffer.withUnsafeMutableBytes { try FileDescriptorReader.read(descriptor, into: $0) }) ?? -1
    }

    /// Removes every complete line from `buffer` and returns them decoded.
    private static func takeLines(from buffer: inout [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(String(decoding: buffer[start..<end], as: UTF8.self))
            start = newline + 1
        }
        if start > 0 { buffer.removeFirst(start) }
        return lines
    }
}
