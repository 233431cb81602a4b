// Test support shared by the Keychain, Logger, AtomicFile and SophonPaths tests: temporary
// folders, file modes and a log recorder.
import Foundation
import Synchronization
import Testing

@testable import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A uniquely named folder under the temporary directory; call `remove()` when done.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sophon-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// `url/relative`.
    func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// The names inside `folder` (default: the root), sorted.
    func names(in folder: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (folder ?? url).path).sorted()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The permission bits of a path (`st_mode & 0o777`), or nil when it cannot be stat'ed.
func permissions(of url: URL) -> UInt32? {
    var status = stat()
    guard stat(url.path, &status) == 0 else { return nil }
    return UInt32(status.st_mode & 0o777)
}

/// Writes a file and sets its mode exactly (chmod, so the umask does not interfere).
func makeFile(_ url: URL, _ text: String, mode: UInt32) throws {
    try Data(text.utf8).write(to: url)
    setMode(url, mode)
}

/// Sets a path's mode bits exactly; fails the test when `chmod` fails.
func setMode(_ url: URL, _ mode: UInt32) {
    #expect(chmod(url.path, mode_t(mode)) == 0)
}

/// The text of a file, or nil when it cannot be read.
func contents(of url: URL) -> String? {
    (try? Data(contentsOf: url)).flatMap { String(data: $0, encoding: .utf8) }
}

/// One captured log message.
struct LogEntry: Equatable, Sendable {
    let level: LogLevel
    let message: String
}

/// An in-memory log handler (like swift-log's test `InMemoryLogHandler`).
final class LogRecorder: Sendable {
    private let captured = Mutex<[LogEntry]>([])

    var handler: LogHandler {
        { level, message in self.captured.withLock { $0.append(LogEntry(level: level, message: message)) } }
    }

    var entries: [LogEntry] { captured.withLock { $0 } }

    /// A logger sending everything here.
    func makeLogger() -> SophonLogger { SophonLogger(handler: handler) }
}
