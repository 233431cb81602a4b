import Foundation
import Synchronization

/// The one way tests start a child with Foundation's `Process`: one launch at a time. On Linux,
/// `Process.run()` called from two test threads at once crashed once in CI (a bad pointer in
/// the `memcpy` of its launch, two parameterised cases starting `sophon` together); the product
/// itself spawns without Foundation's `Process`. A launch takes milliseconds, so the lock costs
/// nothing a test can see.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    /// Runs `process` (`Process.run()`) while no other test launches one.
    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
