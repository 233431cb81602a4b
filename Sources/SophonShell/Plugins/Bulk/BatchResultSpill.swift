import Foundation
import SophonCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output lines of `batch results` as they arrive (in the server's order), kept in a
/// temporary file with only each key's offset in memory, so they can be written out in input
/// order whatever the size of the job (docs/running-many-prompts.md, "Memory"). The file is
/// removed when the value is released.
final class BatchResultSpill {
    /// The keys in the order their first line arrived.
    private(set) var arrival: [String] = []

    private let path: String
    private let descriptor: Int32
    private var size = 0
    private var places: [String: (offset: Int, length: Int)] = [:]

    /// Creates the temporary file in `folder` (``BatchSession/temporaryFolder()``), `0600`.
    /// - Throws: ``CommandFailure`` `fileError` when it cannot be created.
    init(folder: URL) throws {
        path = folder.appendingPathComponent("sophon-results-\(UUID().uuidString.lowercased()).jsonl").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Keeps `line` as the line of `key` (a later line for the same key replaces it).
    /// - Throws: ``CommandFailure`` `fileError` when the file cannot be written.
    func add(key: String, line: String) throws {
        let length = line.utf8.count
        do {
            try FileDescriptorWriter.writeAll(descriptor, line, at: size)
        } catch {
            throw CommandFailure(kind: .fileError, message: "\(path): \(error)")
        }
        if places[key] == nil { arrival.append(key) }
        places[key] = (size, length)
        size += length
    }

    /// The line of `key`, or `nil` when none arrived.
    /// - Throws: ``CommandFailure`` `fileError` when the file cannot be read.
    func line(for key: String) throws -> String? {
        guard let place = places[key] else { return nil }
        var bytes = [UInt8](repeating: 0, count: place.length)
        let done: Int
        do {
            done = try bytes.withUnsafeMutableBytes {
                try FileDescriptorReader.readFully(descriptor, into: $0, at: place.offset)
            }
        } catch { throw CommandFailure(kind: .fileError, message: "\(path): \(error)") }
        guard done == place.length else {
            throw CommandFailure(kind: .fileError, message: "\(path): \(String(cString: strerror(EIO)))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
