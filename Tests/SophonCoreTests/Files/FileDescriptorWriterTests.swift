import Foundation
import SophonCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `FileDescriptorWriter`, the one EINTR-safe write: all of a buffer larger than a pipe holds,
/// `pwrite` at an offset, and a typed error for a bad descriptor. `EINTR` cannot be forced from
/// a test.
struct FileDescriptorWriterTests {
    @Test func writesAllOfABufferLargerThanThePipeHolds() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (input, output) = (ends[0], ends[1])
        defer { close(input) }
        // 1 MiB: the pipe takes 64 KiB at a time, so the writer is held until the reader drains it.
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let writer = Thread {
            try? FileDescriptorWriter.writeAll(output, Data(bytes))
            close(output)
        }
        writer.start()
        var received = [UInt8](repeating: 0, count: bytes.count + 1)
        let count = try received.withUnsafeMutableBytes {
            try FileDescriptorReader.readFully(input, into: $0)
        }
        #expect(count == bytes.count)
        #expect(Array(received[0..<count]) == bytes)
    }

    @Test func writesAtAnOffsetWithoutMovingTheFileOffset() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fdw-\(UUID().uuidString)")
            .path
        defer { unlink(path) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try FileDescriptorWriter.writeAll(descriptor, "hello world")
        try FileDescriptorWriter.writeAll(descriptor, "WORLD", at: 6)
        try FileDescriptorWriter.writeAll(descriptor, "!")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello WORLD!")
        try FileDescriptorWriter.writeAll(descriptor, "", at: 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello WORLD!")
    }

    @Test func aBadDescriptorIsATypedErrorWithItsErrno() {
        #expect(throws: FileDescriptorError(errorNumber: EBADF)) {
            try FileDescriptorWriter.writeAll(-1, "x")
        }
        #expect(FileDescriptorError(errorNumber: EBADF).description == "Bad file descriptor")
    }
}
