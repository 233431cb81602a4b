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

/// `FileDescriptorReader` over a pipe and a file. `EINTR` cannot be forced from a test; these
/// check what each call returns at the end of input, for partial reads and for a bad descriptor.
struct FileDescriptorReaderTests {
    /// A pipe holding `bytes`, its write end closed when `closed`; returns (read end, write end).
    private func makePipe(holding bytes: [UInt8], closed: Bool) -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(write(ends[1], bytes, bytes.count) == bytes.count)
        if closed { close(ends[1]) }
        return (ends[0], closed ? -1 : ends[1])
    }

    private func read(_ descriptor: Int32, count: Int, at offset: Int? = nil) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = try buffer.withUnsafeMutableBytes {
            try FileDescriptorReader.read(descriptor, into: $0, at: offset)
        }
        return Array(buffer[0..<got])
    }

    @Test func readsWhatThePipeHoldsInBufferSizedPiecesThenZeroAtTheEnd() throws {
        let (input, _) = makePipe(holding: Array("hello".utf8), closed: true)
        defer { close(input) }
        #expect(try read(input, count: 3) == Array("hel".utf8))
        #expect(try read(input, count: 3) == Array("lo".utf8))
        #expect(try read(input, count: 3) == [])
        #expect(try read(input, count: 3) == [])
    }

    @Test func aReadReturnsWhatHasArrivedWhileTheWriterIsStillOpen() throws {
        let (input, output) = makePipe(holding: [1, 2], closed: false)
        defer {
            close(input)
            close(output)
        }
        #expect(try read(input, count: 8) == [1, 2])
        #expect(write(output, [3], 1) == 1)
        #expect(try read(input, count: 8) == [3])
    }

    @Test func anEmptyBufferReadsNothing() throws {
        let (input, _) = makePipe(holding: [1], closed: true)
        defer { close(input) }
        #expect(try read(input, count: 0) == [])
        #expect(try read(input, count: 1) == [1])
    }

    @Test func readFullyJoinsPartialReadsUpToTheEndOfInput() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let input = ends[0]
        let output = ends[1]
        defer { close(input) }
        // Two writes apart in time: the reader sees the first alone, then the second.
        let writer = Thread {
            for piece in [[UInt8](repeating: 7, count: 3), [8, 9]] {
                _ = write(output, piece, piece.count)
                usleep(10_000)
            }
            close(output)
        }
        writer.start()
        var buffer = [UInt8](repeating: 0, count: 10)
        let got = try buffer.withUnsafeMutableBytes { try FileDescriptorReader.readFully(input, into: $0) }
        #expect(got == 5)
        #expect(Array(buffer[0..<got]) == [7, 7, 7, 8, 9])
    }

    @Test func readFullyStopsWhenTheBufferIsFull() throws {
        let (input, _) = makePipe(holding: Array("abcdef".utf8), closed: true)
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 4)
        let got = try buffer.withUnsafeMutableBytes { try FileDescriptorReader.readFully(input, into: $0) }
        #expect(got == 4)
        #expect(buffer == Array("abcd".utf8))
        #expect(try read(input, count: 8) == Array("ef".utf8))
    }

    @Test func anOffsetReadsThereAndLeavesTheFileOffsetAlone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fdreader-\(getpid())").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let file = open(path, O_RDONLY)
        defer { close(file) }
        #expect(try read(file, count: 3, at: 4) == Array("456".utf8))
        #expect(try read(file, count: 4, at: 8) == Array("89".utf8))
        var buffer = [UInt8](repeating: 0, count: 4)
        let got = try buffer.withUnsafeMutableBytes {
            try FileDescriptorReader.readFully(file, into: $0, at: 7)
        }
        #expect(got == 3)
        #expect(Array(buffer[0..<got]) == Array("789".utf8))
        #expect(try read(file, count: 2) == Array("01".utf8))
    }

    @Test func aBadDescriptorThrowsEBADF() {
        #expect(throws: FileDescriptorError(errorNumber: EBADF)) { try read(-1, count: 4) }
        #expect(throws: FileDescriptorError(errorNumber: EBADF)) { try read(-1, count: 4, at: 0) }
        #expect(FileDescriptorError(errorNumber: EBADF).description == "Bad file descriptor")
    }

    @Test func aFolderThrowsEISDIR() {
        let folder = open("/", O_RDONLY | O_DIRECTORY)
        defer { close(folder) }
        #expect(throws: FileDescriptorError(errorNumber: EISDIR)) { try read(folder, count: 4) }
    }
}
