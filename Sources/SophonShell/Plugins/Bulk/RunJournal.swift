import Foundation
import SophonCore
import SophonGemini
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The results of a `run` as they finish: `OUTPUT.partial`, one output line appended per key
/// with a single `write(2)`, so a killed run keeps every line it finished (a torn last line is
/// ignored when read back), and a `{"sent": ...}` line per call started, so a resumed run
/// knows the last minute's calls (docs/running-many-prompts.md, "Resuming"). At the end the lines are written to OUTPUT in input order,
/// atomically, and the journal is removed (docs/running-many-prompts.md).
final class RunJournal: Sendable {
    /// The journal's path: `OUTPUT.partial`.
    let path: String
    private let descriptor: Int32
    /// The answered lines by key, from earlier runs and this one.
    private let lines: Mutex<[String: (text: String, ok: Bool)]>
    /// The calls an earlier run started in the last 60 s (its `{"sent": ...}` lines), for the
    /// rate limiter of the resumed run.
    let recentSends: [BulkSend]

    /// Opens (creating it) the journal of `output`, after reading what OUTPUT and the journal
    /// already hold. With `retryFailed`, `ok: false` lines do not count as answered.
    /// - Throws: ``CommandFailure`` `fileError` when OUTPUT is not a regular file or the
    ///   journal cannot be opened.
    init(output: String, retryFailed: Bool) throws {
        path = output + ".partial"
        for target in [output, path] {
            var status = stat()
            if lstat(target, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG,
                (status.st_mode & S_IFMT) != S_IFLNK
            {
                throw CommandFailure(kind: .fileError, message: "\(target): not a regular file")
            }
        }
        var known: [String: (text: String, ok: Bool)] = [:]
        var sends: [BulkSend] = []
        let recent = Date().addingTimeInterval(-60)
        for source in [output, path] {
            guard let reader = try? BulkLineReader(path: source, command: "run") else { continue }
            while let line = reader.next() {
                guard let text = line.text else { continue }
                if source == path, text.hasPrefix(Self.sendPrefix) {
                    if let send = Self.readSend(text), send.time > recent { sends.append(send) }
                    continue
                }
                guard let (key, ok) = BulkOutputLine.read(text) else { continue }
                if ok || !retryFailed { known[key] = (text, ok) } else { known[key] = nil }
            }
        }
        lines = Mutex(known)
        recentSends = sends
        let fd = PrivateFiles.open(path, flags: O_WRONLY | O_APPEND)
        guard fd >= 0 else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        // A kill in the middle of a line leaves it unterminated: start the next one on its own line.
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > 0 {
            let reading = open(path, O_RDONLY | O_CLOEXEC)
            var last: UInt8 = 0
            if reading >= 0 {
                if pread(reading, &last, 1, off_t(status.st_size - 1)) == 1, last != 0x0A {
                    Self.writeAll(fd, "\n")
                }
                close(reading)
            }
        }
    }

    deinit { close(descriptor) }

    /// The keys already answered.
    var answeredKeys: Set<String> { lines.withLock { Set($0.keys) } }

    /// The line of `key`, if answered.
    func line(for key: String) -> String? { lines.withLock { $0[key]?.text } }

    /// Records `text`, the output line of `key`, in memory and in the journal.
    /// - Throws: ``CommandFailure`` `fileError` when the journal cannot be written.
    func append(key: String, ok: Bool, text: String) throws {
        lines.withLock { $0[key] = (text, ok) }
        guard Self.writeAll(descriptor, text + "\n") else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Records that a call started: a `{"sent":SECONDS,"tokens":N}` line (Unix time), read back
    /// by a resumed run so its rate window starts as full as the server's.
    func recordSend(_ send: BulkSend) {
        let seconds = String(format: "%.3f", send.time.timeIntervalSince1970)
        Self.writeAll(descriptor, "\(Self.sendPrefix)\(seconds),\"tokens\":\(send.tokens)}\n")
    }

    private static let sendPrefix = #"{"sent":"#

    private static func readSend(_ text: String) -> BulkSend? {
        guard let value = try? JSONValue(parsing: text), case .number(let seconds)? = value["sent"],
            let time = Double(seconds.text)
        else { return nil }
        let tokens = value["tokens"].flatMap { value -> Int? in
            if case .number(let number) = value { return Int(number.text) }
            return nil
        }
        return BulkSend(time: Date(timeIntervalSince1970: time), tokens: tokens ?? 1)
    }

    /// Removes the journal (after OUTPUT was written).
    func remove() { unlink(path) }

    @discardableResult
    private static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var data = Array(text.utf8)
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeMutableBytes {
                write(fd, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
