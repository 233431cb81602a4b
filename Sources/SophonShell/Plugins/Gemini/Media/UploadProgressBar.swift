import Foundation
import Synchronization

/// An upload's progress on stderr, redrawn on one line (`clip.mp4  45%  9.0/20.0 MB  12.3 MB/s`),
/// only when stderr is a terminal whose `TERM` is set and not `dumb`; no colours. Ends with the
/// line cleared.
final class UploadProgressBar: Sendable {
    private let io: ShellIO
    private let name: String
    private let started = ContinuousClock.now
    private let drawn = Mutex(false)

    private init(io: ShellIO, name: String) {
        self.io = io
        self.name = name
    }

    /// A bar when the shell's stderr is the process's and a usable terminal; `nil` otherwise.
    static func forStandardError(
        io: ShellIO, name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> UploadProgressBar? {
        guard let sink = io.stderr as? FileDescriptorSink, sink.descriptor == STDERR_FILENO,
            isatty(STDERR_FILENO) == 1, let term = environment["TERM"], !term.isEmpty, term != "dumb"
        else { return nil }
        return UploadProgressBar(io: io, name: name)
    }

    /// Draws `sent` of `total` bytes.
    var update: @Sendable (Int, Int) -> Void {
        { [self] sent, total in
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            io.stderr.write("\r\u{1B}[K" + Self.line(name: name, sent: sent, total: total, seconds: seconds))
            drawn.withLock { $0 = true }
        }
    }

    /// Clears the bar's line.
    func finish() {
        if drawn.withLock({ $0 }) { io.stderr.write("\r\u{1B}[K") }
    }

    /// `NAME  45%  9.0/20.0 MB  12.3 MB/s` (MB = 10^6 bytes).
    static func line(name: String, sent: Int, total: Int, seconds: Double) -> String {
        let percent = total == 0 ? 100 : sent * 100 / total
        let rate = seconds > 0 ? Double(sent) / seconds / 1e6 : 0
        let numbers = String(
            format: "%3d%%  %.1f/%.1f MB  %.1f MB/s", percent, Double(sent) / 1e6, Double(total) / 1e6, rate)
        return "\(name)  \(numbers)"
    }
}
