import Foundation

/// Reads that go on after a signal. The Ctrl-C tests send real SIGINTs to this test process
/// with a handler installed without `SA_RESTART`, so a read on another test's thread may
/// return `EINTR`, which Foundation's `readDataToEndOfFile` and `readData(ofLength:)` turn into
/// a crash (`try!`). Test support only.
extension FileHandle {
    /// Everything up to the end of the file, read with `read(2)` and retried after `EINTR`.
    public func readAllRetryingInterrupts() -> Data {
        var data = Data()
        while true {
            let chunk = readChunkRetryingInterrupts()
            if chunk.isEmpty { return data }
            data += chunk
        }
    }

    /// What one `read(2)` of at most `limit` bytes returns (empty at the end of the file or on
    /// an error other than `EINTR`), retried after `EINTR`.
    public func readChunkRetryingInterrupts(limit: Int = 65_536) -> Data {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Writes all of `data` with `write(2)`, retried after `EINTR`; stops early when the reader
    /// is gone (`EPIPE`) or on another error.
    public func writeAllRetryingInterrupts(_ data: Data) {
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.write(fileDescriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count >= 0 {
                offset += count
            } else if errno != EINTR {
                return
            }
        }
    }
}
