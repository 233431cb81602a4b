#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `read(2)`, `pread(2)`, `write(2)` or `pwrite(2)` of ``FileDescriptorReader`` or
/// ``FileDescriptorWriter`` that failed with something other than `EINTR`.
public struct FileDescriptorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` the call set (e.g. `EBADF` = 9, `EPIPE` = 32 on Linux).
    public let errorNumber: Int32

    /// Creates the error of `errno` value `errorNumber`.
    public init(errorNumber: Int32) {
        self.errorNumber = errorNumber
    }

    /// The system's text for ``errorNumber``, e.g. `Bad file descriptor`, `Broken pipe`.
    public var description: String { String(cString: strerror(errorNumber)) }
}
