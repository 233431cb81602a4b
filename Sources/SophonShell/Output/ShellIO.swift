import Foundation
import SophonCore
import Synchronization

/// Where a text stream goes: the process's stdout or stderr, or a buffer in tests.
package protocol ShellTextSink: Sendable {
    /// Writes `text` as UTF-8, unchanged (no newline is added).
    func write(_ text: String)
    /// Writes `bytes` (UTF-8, whole characters), unchanged. The default decodes them and
    /// calls ``write(_:)``; a file descriptor writes them as they are.
    func write(bytes: UnsafeRawBufferPointer)
}

extension ShellTextSink {
    package func write(bytes: UnsafeRawBufferPointer) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// The standard input, output and error of one shell run. Commands never touch
/// `FileHandle.standard*` directly, so tests can capture everything.
package struct ShellIO: Sendable {
    /// Results.
    var stdout: any ShellTextSink
    /// Errors, warnings, notices, repairs and logs.
    var stderr: any ShellTextSink
    /// Reads all of standard input (blocking until end of file); the process's own reader stops
    /// after ``maximumInputBytes`` + 1 bytes, so `sophon ask hi < /dev/zero` ends instead of
    /// filling the memory (a caller seeing more than the limit refuses the input). A read error
    /// is thrown (``CommandFailure`` `fileError`), never taken for the end of input.
    var readAllInput: @Sendable () throws(CommandFailure) -> Data
    /// Standard input's file descriptor when it is the process's own (read directly when it
    /// is a regular file, see ``TextInputReader``); `nil` in tests.
    var inputDescriptor: Int32? = nil

    /// The process's own standard streams.
    package static let standard = ShellIO(
        stdout: FileDescriptorSink(descriptor: STDOUT_FILENO),
        stderr: FileDescriptorSink(descriptor: STDERR_FILENO),
        readAllInput: { () throws(CommandFailure) in try readStandardInput(limit: maximumInputBytes) },
        inputDescriptor: STDIN_FILENO
    )

    /// The most standard input that is read (256 MiB, the `@FILE` limit, docs/files.md).
    static let maximumInputBytes = 256 * 1024 * 1024

    /// Standard input up to its end or `limit` + 1 bytes, whichever comes first.
    /// - Throws: ``CommandFailure`` `fileError` (`stdin: REASON`) when a read fails.
    static func readStandardInput(limit: Int) throws(CommandFailure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            let wanted = min(buffer.count, limit + 1 - data.count)
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes {
                    try FileDescriptorReader.read(STDIN_FILENO, into: .init(rebasing: $0[0..<wanted]))
                }
            } catch { throw CommandFailure(kind: .fileError, message: "stdin: \(error)") }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Writes `line` and a newline to stdout.
    func printLine(_ line: String) {
        // A long line (a large JSON value) is not copied to add its newline.
        if line.utf8.count >= 1 << 16 {
            stdout.write(line)
            stdout.write("\n")
        } else {
            stdout.write(line + "\n")
        }
    }

    /// Writes `line` and a newline to stderr.
    func printError(_ line: String) { stderr.write(line + "\n") }
}

/// Writes to a file descriptor, retrying short writes and `EINTR`.
package struct FileDescriptorSink: ShellTextSink {
    package let descriptor: Int32

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// The first failed write of the process: the descriptor and its `errno`.
    package static let firstFailure = Mutex<(descriptor: Int32, code: Int32)?>(nil)

    /// How many writes of something the process's sinks have made (the REPL asks whether any
    /// came after a Ctrl-C: ``InterruptSignal/leftAnEchoedControlCharacter``).
    package static let writes = Atomic<Int>(0)

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    package func write(bytes: UnsafeRawBufferPointer) {
        if !bytes.isEmpty { Self.writes.add(1, ordering: .sequentiallyConsistent) }
        do {
            try FileDescriptorWriter.writeAll(descriptor, bytes)
        } catch  where error.errorNumber == EPIPE {
            // The reader went away (`sophon ... | head`). SIGPIPE is ignored while external
            // plugins run, so end as the default SIGPIPE action would: quietly, status 141.
            _exit(128 + SIGPIPE)
        } catch {
            // A full disk or a closed descriptor: remember it, so the run can end with an
            // error instead of a status that says everything was printed.
            FileDescriptorSink.firstFailure.withLock { $0 = $0 ?? (descriptor, error.errorNumber) }
        }
    }
}
