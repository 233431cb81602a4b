import Foundation

/// Reads that go on after a signal. The Ctrl-C tests send real SIGINTs to this test process
/// with a handler installed without `SA_RESTART`, so a read on another test's thread may
/// return `EINTR`, which Foundation's `readDataToEndOfFile` turns into a crash (`try!`).
extension FileHandle {
    /// Everything up to the end of the file, read with `read(2)` and retried after `EINTR`.
    func readAllRetryingInterrupts() -> Data {
        var data = Data()
        while true {
            let chunk = readChunkRetryingInterrupts()
            if chunk.isEmpty { return data }
            data += chunk
        }
    }

    /// What one `read(2)` returns (empty at the end of the file or on an error other than
    /// `EINTR`), retried after `EINTR`.
    func readChunkRetryingInterrupts() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }
}
