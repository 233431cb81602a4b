import Foundation
import SophonCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends tape lines to a file as a run goes, in the order requests were sent.
///
/// The file is opened `O_APPEND` and each line (text plus `\n`) goes out in one `write(2)`
/// call, with no buffering in the process, so a killed run leaves every complete line on disk.
/// An exchange takes a slot when its request is sent; its line is written once it and every
/// earlier slot are complete, so a stream that finishes after a later request started still
/// lands in request order.
final class GeminiTapeWriter: Sendable {
    private struct State: Sendable {
        var nextSlot = 0
        var nextToWrite = 0
        var pending: [Int: String] = [:]
        var failure: GeminiTapeError?
    }

    let path: String
    private let descriptor: Int32
    private let state = Mutex(State())

    /// Creates (or truncates) the file at `url` and writes the header line `{"sophonTape":1}`.
    /// - Throws: ``GeminiTapeError/unwritable(path:reason:)``.
    init(url: URL) throws(GeminiTapeError) {
        path = url.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw GeminiTapeError.unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
        if let failure = Self.writeLine(GeminiTape.headerLine, to: descriptor, path: path) {
            close(descriptor)
            throw failure
        }
    }

    deinit { close(descriptor) }

    /// The first write failure, if any (later lines are dropped after one).
    var failure: GeminiTapeError? { state.withLock { $0.failure } }

    /// Takes the next slot, in request order.
    func reserve() -> Int {
        state.withLock { state in
            defer { state.nextSlot += 1 }
            return state.nextSlot
        }
    }

    /// Completes `slot` with `line` (one line of JSON, no newline) and writes every line that
    /// is now due.
    /// - Returns: the write failure, when this call hit one.
    @discardableResult
    func complete(_ slot: Int, line: String) -> GeminiTapeError? {
        state.withLock { state in
            state.pending[slot] = line
            while let due = state.pending.removeValue(forKey: state.nextToWrite) {
                state.nextToWrite += 1
                guard state.failure == nil else { continue }
                if let failure = Self.writeLine(due, to: descriptor, path: path) {
                    state.failure = failure
                    return failure
                }
            }
            return nil
        }
    }

    /// Writes `line` and a newline, in one call unless the system writes it short.
    private static func writeLine(_ line: String, to descriptor: Int32, path: String) -> GeminiTapeError? {
        do {
            try FileDescriptorWriter.writeAll(descriptor, line + "\n")
            return nil
        } catch {
            return .unwritable(path: path, reason: error.description)
        }
    }
}
