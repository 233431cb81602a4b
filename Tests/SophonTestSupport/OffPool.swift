import Foundation

/// Runs work that blocks a thread (a child process to its end, a pipe read, a semaphore, a wait
/// for a port) on a thread of its own, and resumes the caller when it is done. The test process
/// has only as many cooperative-pool threads as cores (2 on CI): a test that blocked one of them
/// for a child's whole run starved every async test meanwhile, whose real-clock limits then fired
/// on a loaded machine. Test support only.
public enum OffPool {
    /// The value `work` returns (or the error it throws), computed on a new thread.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// The value `work` returns, computed on a new thread.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
