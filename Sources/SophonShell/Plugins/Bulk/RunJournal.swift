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
/// knows the last minute's calls (docs/running-many-prompts.md, "Resuming"). Before each
/// answer, in the same write, a `{"request":HASH,"key":K}` line names what was sent
/// (``BulkRequest/fingerprint``): a resume reuses an answer only for the same request. At the
/// end the lines are written to OUTPUT in input order, atomically, the hashes to
/// `OUTPUT.requests`, and the journal is removed (docs/running-many-prompts.md).
final class RunJournal: Sendable {
    /// The journal's path: `OUTPUT.partial`.
    let path: String
    private let descriptor: Int32
    /// The answered lines by key, from earlier runs and this one.
    private let lines: Mutex<[String: (text: String, ok: Bool)]>
    /// The request hash of each answered key, from earlier runs and this one.
    private let hashes: Mutex<[String: String]>
    /// Where the hashes of a finished OUTPUT are kept: `OUTPUT.requests`.
    let hashesPath: String
    /// The calls an earlier run started in the last 60 s (its `{"sent": ...}` lines), for the
    /// rate limiter of the resumed run.
    let recentSends: [BulkSend]

    /// Opens (creating it) the journal of `output`, after reading what OUTPUT and the journal
    /// already hold. With `retryFailed`, `ok: false` lines do not count as answered.
    /// - Throws: ``CommandFailure`` `fileError` when OUTPUT is not a regular file or the
    ///   journal cannot be opened.
    /// - Parameter byModel: `run --models`: each output line is keyed by its key and its
    ///   `model` (``RunCommand/runKey(_:model:)``).
    init(output: String, retryFailed: Bool, byModel: Bool = false) throws {
        path = output + ".partial"
        hashesPath = output + ".requests"
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
        var hashed: [String: String] = [:]
        let recent = Date().addingTimeInterval(-60)
        for source in [output, hashesPath, path] {
            guard let reader = try? BulkLineReader(path: source, command: "run") else { continue }
            while let line = reader.next() {
                guard let text = line.text else { continue }
                if text.hasPrefix(Self.requestPrefix) {
                    if let (key, hash) = Self.readRequest(text) { hashed[key] = hash }
                    continue
                }
                guard source != hashesPath else { continue }
                if source == path, text.hasPrefix(Self.sendPrefix) {
                    if let send = Self.readSend(text), send.time > recent { sends.append(send) }
                    continue
                }
                guard let (readKey, ok) = BulkOutputLine.read(text) else { continue }
                var key = readKey
                if byModel {
                    guard let model = (try? JSONValue(parsing: text))?["model"]?.stringValue else { continue }
                    key = RunCommand.runKey(key, model: GeminiModel(id: model))
                }
                if ok || !retryFailed { known[key] = (text, ok) } else { known[key] = nil }
            }
        }
        lines = Mutex(known)
        hashes = Mutex(hashed)
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

    /// Whether an earlier answer of a key can stand for its request now.
    enum Reuse: Equatable {
        /// Answered for this very request: not sent again.
        case same
        /// Answered for another request (the prompt, schema, model or a setting changed).
        case changed
        /// Answered, but the journal or OUTPUT does not say for which request (written before
        /// requests were hashed): sent again.
        case unknown
        /// Not answered (or a failure under `--retry-failed`).
        case none
    }

    /// Whether the answer of `key`, if any, was for the request hashed `hash`.
    func reuse(key: String, hash: String) -> Reuse {
        guard lines.withLock({ $0[key] != nil }) else { return .none }
        switch hashes.withLock({ $0[key] }) {
        case hash?: return .same
        case .some: return .changed
        case nil: return .unknown
        }
    }

    /// The line of `key`, if answered.
    func line(for key: String) -> String? { lines.withLock { $0[key]?.text } }

    /// Records `text`, the output line of `key`, in memory and in the journal.
    /// - Throws: ``CommandFailure`` `fileError` when the journal cannot be written.
    func append(key: String, ok: Bool, text: String, hash: String) throws {
        lines.withLock { $0[key] = (text, ok) }
        hashes.withLock { $0[key] = hash }
        guard Self.writeAll(descriptor, Self.requestLine(key: key, hash: hash) + "\n" + text + "\n") else {
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
    private static let requestPrefix = #"{"request":"#

    /// `{"request":HASH,"key":K}`: the hash of what was sent for `key`.
    private static func requestLine(key: String, hash: String) -> String {
        JSONValue.object([JSONMember("request", .string(hash)), JSONMember("key", .string(key))]).compactText
    }

    private static func readRequest(_ text: String) -> (key: String, hash: String)? {
        guard let value = try? JSONValue(parsing: text), case .string(let hash)? = value["request"],
            case .string(let key)? = value["key"]
        else { return nil }
        return (key, hash)
    }

    /// Writes the hashes of `keys` to `OUTPUT.requests` (atomically), for the next run into
    /// the same OUTPUT.
    /// - Throws: ``CommandFailure`` `fileError` when it cannot be written.
    func writeHashes(keys: [String]) throws {
        let known = hashes.withLock { $0 }
        var data = Data()
        for key in keys {
            guard let hash = known[key] else { continue }
            data.append(contentsOf: (Self.requestLine(key: key, hash: hash) + "\n").utf8)
        }
        do {
            try AtomicFile.write(data, to: URL(fileURLWithPath: hashesPath))
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(error)")
        }
    }

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
        (try? FileDescriptorWriter.writeAll(fd, text)) != nil
    }
}

extension BulkRequest {
    /// What identifies this request for a resume: the SHA-256 (hex) of the model's id and the
    /// body as sent (the schema applied), encoded with sorted keys. A changed prompt, schema,
    /// model or setting changes it; the key does not.
    var fingerprint: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data(((model?.id ?? "") + "\n").utf8)
        data.append((try? encoder.encode(request.answering(schema: schema))) ?? Data())
        return SHA256.hexDigest(data)
    }
}
