import Foundation
import SophonCore

/// The bytes of a large `extract` input held without a copy into a `String` (issue 20): a
/// regular file mapped read-only, or a pipe read in one go into one anonymous mapping.
///
/// A mapped file's pages can be given back while the extractor reads it
/// (``releaseResidentPages()``, passed to `LLMJSONExtractor.extract(fromUTF8:releasingInput:)`):
/// the kernel reads them again from the page cache when they are touched again, so a 10 MB
/// file is not held in the process's memory beside the value's text (docs/benchmarks.md,
/// "Whole process"). A pipe's pages cannot be given back (they exist nowhere else).
///
/// The mapping is removed when the instance goes away.
final class MappedInput: @unchecked Sendable {
    /// Regular files smaller than this are read by ``TextInputReader`` (mapping pays off only
    /// for large inputs): 1 MiB.
    static let minimumFileSize = 1 << 20
    /// The room first reserved for a pipe (address space only; untouched pages cost no
    /// memory): 256 MiB, doubled (one copy) when a pipe brings more.
    static let pipeReservation = 256 << 20
    /// Step of the first pass over a file (NUL and UTF-8 checks), after which its pages are
    /// given back: 1 MiB.
    static let checkStep = 1 << 20

    /// The text: the bytes from the descriptor's offset to the end, less a leading UTF-8 byte
    /// order mark of well-formed text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the first NUL byte from the start of the input (byte order mark
    /// included), if any: the input is binary.
    let nulOffset: Int?
    /// Whether the bytes are well-formed UTF-8 (``UTF8Validator``).
    let isValidUTF8: Bool
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int
    private let isFileMapping: Bool

    private init(
        mapping: UnsafeMutableRawPointer, mappedLength: Int, start: Int, count: Int, isFileMapping: Bool,
        release: (() -> Void)?
    ) {
        self.mapping = mapping
        self.mappedLength = mappedLength
        self.isFileMapping = isFileMapping
        let all = UnsafeBufferPointer(
            start: (mapping + start).assumingMemoryBound(to: UInt8.self), count: count)
        var nul: Int?
        var valid = true
        var offset = 0
        while offset < count, nul == nil {
            var end = min(count, offset + Self.checkStep)
            // A step ends before a character's first byte, so no character is split.
            while end < count, end - offset > Self.checkStep - 4, all[end] & 0xC0 == 0x80 { end -= 1 }
            let step = UnsafeBufferPointer(rebasing: all[offset..<end])
            if let found = memchr(step.baseAddress!, 0, step.count) {
                nul = offset + (UnsafeRawPointer(found) - UnsafeRawPointer(step.baseAddress!))
            }
            if valid, !UTF8Validator.isValid(step) { valid = false }
            offset = end
            release?()
        }
        nulOffset = nul
        isValidUTF8 = valid
        if valid, count >= 3, all[0] == 0xEF, all[1] == 0xBB, all[2] == 0xBF {
            bytes = UnsafeBufferPointer(rebasing: all[3...])
        } else {
            bytes = all
        }
    }

    deinit { munmap(mapping, mappedLength) }

    /// Gives back the resident pages of a file mapping (they are read again from the page
    /// cache when touched); does nothing for a pipe's bytes.
    func releaseResidentPages() {
        guard isFileMapping else { return }
        _ = madvise(mapping, mappedLength, MADV_DONTNEED)
    }

    /// The text as a `String`, invalid UTF-8 replaced with U+FFFD (as `String(decoding:as:)`
    /// replaces it): for input that is not well-formed.
    var repairedText: String { String(decoding: bytes, as: UTF8.self) }

    /// Maps the regular file at `path` when it holds between ``minimumFileSize`` and `limit`
    /// bytes; `nil` otherwise (the caller's general path reads or refuses it). Anything else is
    /// never opened: opening a FIFO takes what its writer sent, and the caller's own reading
    /// would then wait for a writer that never comes (`extract @FIFO` hung).
    static func map(path: String, limit: Int) -> MappedInput? {
        guard TextInputReader.isRegularFile(path) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return map(descriptor: descriptor, limit: limit)
    }

    /// Maps the regular file open at `descriptor`, from its current offset to its end, when
    /// that is between ``minimumFileSize`` and `limit` bytes, and moves the offset to the end;
    /// `nil` otherwise, the offset unchanged.
    static func map(descriptor: Int32, limit: Int) -> MappedInput? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let start = Int(lseek(descriptor, 0, SEEK_CUR))
        let size = Int(status.st_size)
        guard start >= 0, size - start >= minimumFileSize, size - start <= limit else { return nil }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != mapFailed
        else { return nil }
        Self.truncationGuard
        // Read once from start to end: the kernel reads ahead.
        _ = madvise(mapping, size, MADV_SEQUENTIAL)
        let release = { _ = madvise(mapping, size, MADV_DONTNEED) }
        let input = MappedInput(
            mapping: mapping, mappedLength: size, start: start, count: size - start, isFileMapping: true,
            release: release)
        lseek(descriptor, off_t(size), SEEK_SET)
        return input
    }

    /// Why a pipe could not be read whole.
    enum PipeFailure: Error, Equatable {
        /// It brought more than the limit (the bytes beyond are not read).
        case overLimit(Int)
        /// `read` failed with this `errno` (not `EINTR`, which is retried).
        case readError(Int32)
    }

    /// Reads `descriptor` (a pipe, a terminal, ...) to its end into an anonymous mapping;
    /// `nil` when it is a regular file or nothing could be reserved (nothing read then).
    /// - Parameter limit: the most bytes taken; more is ``PipeFailure/overLimit(_:)`` (so
    ///   `extract < /dev/zero` ends at once instead of filling the memory).
    /// - Throws: ``PipeFailure``: over `limit`, or a read error (never a silently shorter input).
    static func read(pipe descriptor: Int32, limit: Int) throws(PipeFailure) -> MappedInput? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return nil }
        var capacity = min(pipeReservation, limit + 1)
        guard var mapping = anonymousMapping(capacity) else { return nil }
        var filled = 0
        while true {
            if filled > limit {
                munmap(mapping, capacity)
                throw .overLimit(limit)
            }
            if filled == capacity {
                guard let larger = anonymousMapping(min(2 * capacity, limit + 1)) else {
                    munmap(mapping, capacity)
                    throw .readError(ENOMEM)
                }
                larger.copyMemory(from: mapping, byteCount: filled)
                munmap(mapping, capacity)
                mapping = larger
                capacity = min(2 * capacity, limit + 1)
            }
            let count: Int
            do {
                count = try FileDescriptorReader.read(
                    descriptor,
                    into: UnsafeMutableRawBufferPointer(start: mapping + filled, count: capacity - filled))
            } catch {
                munmap(mapping, capacity)
                throw .readError(error.errorNumber)
            }
            if count == 0 { break }  // End of input.
            filled += count
        }
        return MappedInput(
            mapping: mapping, mappedLength: capacity, start: 0, count: filled, isFileMapping: false,
            release: nil)
    }

    /// Installed once, before the first file is mapped: a mapped file that another process
    /// truncates while it is read raises SIGBUS on the first page past its new end. That
    /// handler ends the process with a clear error and status 1 instead of a crash with a
    /// core dump (the input is gone; nothing has been written yet but what was streamed).
    private static let truncationGuard: Void = EditorSignals.set(
        SIGBUS,
        { _ in
            EditorSignals.write(
                "error: the input file was truncated while it was read (it changed under sophon)\n",
                to: STDERR_FILENO)
            _exit(1)
        }, restart: true)

    /// What `mmap` returns when it fails (`MAP_FAILED`, `(void *) -1`).
    private static var mapFailed: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -1) }

    private static func anonymousMapping(_ length: Int) -> UnsafeMutableRawPointer? {
        guard
            let mapping = mmap(
                nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
            mapping != mapFailed
        else { return nil }
        return mapping
    }
}
